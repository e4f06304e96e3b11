package tracing

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// Name is the instrumentation scope and the default service name.
const Name = "strata"

// EndpointEnv is the standard variable that turns export on without a flag.
const EndpointEnv = "OTEL_EXPORTER_OTLP_ENDPOINT"

// Config says where spans go.
type Config struct {
	// Endpoint is the OTLP/HTTP base URL (http://host:4318); empty reads
	// EndpointEnv, and empty there too leaves tracing off.
	Endpoint string
	Service  string // service.name; Name when empty
	Version  string
}

// Setup installs the global tracer provider when an endpoint is
// configured and returns the function that flushes and stops it (a no-op
// when tracing is off). Traces go out in batches; a collector that is down
// loses spans, never blocks a run.
func Setup(ctx context.Context, cfg Config) (shutdown func(context.Context) error, err error) {
	endpoint := cfg.Endpoint
	if endpoint == "" {
		endpoint = os.Getenv(EndpointEnv)
	}
	if endpoint == "" {
		return func(context.Context) error { return nil }, nil
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("OTLP endpoint %q: want an http(s) URL such as http://127.0.0.1:4318", endpoint)
	}
	opts := []otlptracehttp.Option{otlptracehttp.WithEndpointURL(strings.TrimSuffix(endpoint, "/") + "/v1/traces")}
	exp, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("OTLP exporter: %w", err)
	}
	service := cfg.Service
	if service == "" {
		service = Name
	}
	attrs := []attribute.KeyValue{attribute.String("service.name", service)}
	if cfg.Version != "" {
		attrs = append(attrs, attribute.String("service.version", cfg.Version))
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exp, sdktrace.WithBatchTimeout(time.Second)),
		sdktrace.WithResource(resource.NewWithAttributes("", attrs...)),
	)
	otel.SetTracerProvider(tp)
	on.Store(true)
	otel.SetTextMapPropagator(propagation.TraceContext{})
	slog.Info("traces are exported over OTLP", "endpoint", u.Redacted())
	return func(ctx context.Context) error {
		on.Store(false)
		return errors.Join(tp.ForceFlush(ctx), tp.Shutdown(ctx))
	}, nil
}

// on is set by Setup when spans are exported.
var on atomic.Bool

// On reports whether tracing is on: callers skip building what only a
// span would use.
func On() bool { return on.Load() }

// noSpan is what Start returns with tracing off: OpenTelemetry's
// non-recording span, made once.
var noSpan = trace.SpanFromContext(context.Background())

// Tracer is Strata's tracer from the global provider (no-op when off).
func Tracer() trace.Tracer { return otel.Tracer(Name) }

// Start starts a span; a short-hand for Tracer().Start. With tracing off
// it returns ctx as it is and a no-op span, allocating nothing.
func Start(ctx context.Context, name string, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
	if !on.Load() {
		return ctx, noSpan
	}
	// A copy, so that attrs does not escape: the callers' argument lists
	// stay on their stacks when tracing is off.
	a := make([]attribute.KeyValue, len(attrs))
	copy(a, attrs)
	return Tracer().Start(ctx, name, trace.WithAttributes(a...))
}

// End ends a span, marking it failed with err's text when err is set.
// scrub, when set, masks the text first: an error can quote a block's SQL
// or output, and so a secret (the engine passes its secrets' Mask).
func End(span trace.Span, err error, scrub func(string) string) {
	if err != nil && span.IsRecording() {
		msg := err.Error()
		if scrub != nil {
			msg = scrub(msg)
		}
		span.SetStatus(codesError, msg)
	}
	span.End()
}

// TraceID is the trace of ctx's span as 32 hex digits; empty when ctx
// holds no recording span (tracing off).
func TraceID(ctx context.Context) string {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() || !sc.IsSampled() {
		return ""
	}
	return sc.TraceID().String()
}
