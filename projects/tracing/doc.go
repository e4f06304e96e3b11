// Package tracing is Strata's OpenTelemetry: one tracer for the server, the
// engine and the kernels' callers, exported over OTLP/HTTP when configured
// and off otherwise.
//
// Off is OpenTelemetry's global no-op provider: a span start is a function
// call that returns a non-recording span, no allocation of attributes
// happens behind an IsRecording check, nothing is buffered or sent. On,
// spans are batched and sent to the endpoint (a collector or Jaeger).
//
// Attributes are chosen, never copied wholesale: pipeline, partition,
// backfill, run, block and HTTP route names. No header, query string,
// variable, SQL text or secret value is put in a span (a test reads a
// whole trace back from Jaeger to check it).
package tracing
