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

// A line logged with a run's context names the run, its backfill and its
// trace; one logged without them names none (no empty ids).
func TestLogLinesNameTheirRunAndBackfill(t *testing.T) {
	tp := sdktrace.NewTracerProvider()
	ctx, span := tp.Tracer(Name).Start(WithBackfill(context.Background(), "bf_1"), "run")
	ctx = WithRun(ctx, "run_1")
	var buf bytes.Buffer
	log := slog.New(LogHandler{slog.NewJSONHandler(&buf, nil)}).With("pipeline", "days")
	log.WarnContext(ctx, "run failed")
	log.Info("no run")
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	if len(lines) != 2 {
		t.Fatalf("lines: %s", buf.Bytes())
	}
	var in, out map[string]any
	if json.Unmarshal(lines[0], &in) != nil || json.Unmarshal(lines[1], &out) != nil {
		t.Fatalf("not JSON: %s", buf.Bytes())
	}
	if in["run_id"] != "run_1" || in["backfill_id"] != "bf_1" || in["trace_id"] != span.SpanContext().TraceID().String() || in["pipeline"] != "days" {
		t.Fatalf("line of the run: %v", in)
	}
	for _, k := range []string{"run_id", "backfill_id", "trace_id", "span_id"} {
		if _, ok := out[k]; ok {
			t.Fatalf("line outside any run has %s: %v", k, out)
		}
	}
	if WithRun(ctx, "") != ctx || RunID(context.Background()) != "" {
		t.Fatal("an empty id marks nothing")
	}
}
