package remote

import (
	"context"
	"net/http"

	"github.com/nats-io/nats.go"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/stratahq/strata/kernel/protocol"
)

// The trace context crosses NATS in the task message's headers, as W3C
// traceparent (the propagator the process installed; none when tracing is
// off, and then nothing is added). Only ids travel: no attribute of the
// coordinator's spans is in the message.

// injectTrace writes ctx's trace context into a task's headers.
func injectTrace(ctx context.Context, h nats.Header) {
	if h != nil {
		otel.GetTextMapPropagator().Inject(ctx, propagation.HeaderCarrier(http.Header(h)))
	}
}

// startTaskSpan continues the trace a task carries with the worker's span.
func startTaskSpan(ctx context.Context, h nats.Header, worker, label string) (context.Context, trace.Span) {
	if h != nil {
		ctx = otel.GetTextMapPropagator().Extract(ctx, propagation.HeaderCarrier(http.Header(h)))
	}
	return otel.Tracer("strata").Start(ctx, "worker task", trace.WithSpanKind(trace.SpanKindConsumer),
		trace.WithAttributes(attribute.String("strata.worker", worker), attribute.String("strata.task", label)))
}

// endTaskSpan records how the task went: the engine it ran on and, on a
// failure, the error's kind only (its text can quote a block's data).
func endTaskSpan(span trace.Span, engine string, res *protocol.Result, err error) {
	if !span.IsRecording() {
		return
	}
	span.SetAttributes(attribute.String("strata.engine", engine))
	switch {
	case err != nil:
		span.SetStatus(codes.Error, "no kernel")
	case res != nil && res.Error != nil:
		span.SetStatus(codes.Error, string(res.Error.Kind))
	}
}
