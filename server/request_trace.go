package server

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/stratahq/strata/projects/tracing"
)

// traceRequests gives every request a server span named after its route
// ("GET /api/v1/runs/:id"), continuing a caller's trace (traceparent). Only
// the method, the route pattern and the status go in: never the URL's query
// (a ?token=), a header or a body. With tracing off the span is a no-op.
func (s *Server) traceRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !tracing.On() {
			return next(c)
		}
		r := c.Request()
		ctx := otel.GetTextMapPropagator().Extract(r.Context(), propagation.HeaderCarrier(r.Header))
		ctx, span := tracing.Tracer().Start(ctx, "HTTP "+r.Method, trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(attribute.String("http.request.method", r.Method)))
		defer span.End()
		c.SetRequest(r.WithContext(ctx))
		err := next(c)
		if !span.IsRecording() {
			return err
		}
		route := c.Path() // the pattern; set once routing ran
		if route == "" {
			route = "unmatched"
		}
		status := c.Response().Status
		if err != nil {
			status = toAPIError(err).Status
		}
		span.SetName(r.Method + " " + route)
		span.SetAttributes(attribute.String("http.route", route), attribute.Int("http.response.status_code", status))
		if status >= http.StatusInternalServerError {
			span.SetStatus(codes.Error, http.StatusText(status))
		}
		return err
	}
}
