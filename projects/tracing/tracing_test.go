package tracing

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// Off (no endpoint, no OTEL_EXPORTER_OTLP_ENDPOINT), a span costs no
// allocation and carries no trace id: what every run pays by default.
func TestOffCostsNothing(t *testing.T) {
	t.Setenv(EndpointEnv, "")
	stop, err := Setup(context.Background(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer stop(context.Background())
	ctx := context.Background()
	allocs := testing.AllocsPerRun(1000, func() {
		c, span := Start(ctx, "run", attribute.String("strata.pipeline", "clv"), attribute.String("strata.partition", "2024-01-01"))
		End(span, nil, nil)
		_ = c
	})
	if allocs != 0 {
		t.Fatalf("a span with tracing off allocates %.1f times, want 0", allocs)
	}
	c, span := Start(ctx, "run", attribute.String("strata.partition", "2024-01-01"))
	defer span.End()
	if span.IsRecording() || TraceID(c) != "" {
		t.Fatalf("tracing off: recording %v, trace id %q", span.IsRecording(), TraceID(c))
	}
}

func TestBadEndpointIsRefused(t *testing.T) {
	for _, e := range []string{"127.0.0.1:4318", "ftp://x", "http://"} {
		if _, err := Setup(context.Background(), Config{Endpoint: e}); err == nil {
			t.Errorf("endpoint %q accepted", e)
		}
	}
}

// A line logged inside a span carries its trace and span ids; End masks
// an error's text before it becomes the span's status.
func TestLogLinesAndErrorsOfASpan(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	ctx, span := tp.Tracer(Name).Start(context.Background(), "run")
	var buf bytes.Buffer
	log := slog.New(LogHandler{slog.NewJSONHandler(&buf, nil)})
	log.InfoContext(ctx, "run failed", "run", "r1")
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatal(err)
	}
	if line["trace_id"] != span.SpanContext().TraceID().String() || line["span_id"] != span.SpanContext().SpanID().String() {
		t.Fatalf("log line %v, want the span's ids", line)
	}
	if TraceID(ctx) != span.SpanContext().TraceID().String() {
		t.Fatalf("TraceID: %q", TraceID(ctx))
	}
	End(span, errString("connect with password hunter2"), func(s string) string { return bytes.NewBufferString(s).String()[:len(s)-len("hunter2")] + "***" })
	got := rec.Ended()[0].Status().Description
	if got != "connect with password ***" {
		t.Fatalf("status %q", got)
	}
}

type errString string

func (e errString) Error() string { return string(e) }
