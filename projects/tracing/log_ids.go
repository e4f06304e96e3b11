package tracing

import "context"

// The run and backfill a piece of work belongs to ride on its context, set
// once where a run or backfill starts, so every log line written with that
// context (slog's *Context calls) names them, as it names the trace.
type logIDKey int

const (
	runIDKey logIDKey = iota
	backfillIDKey
)

// WithRun returns ctx marked as the work of run id (LogHandler adds run_id).
func WithRun(ctx context.Context, id string) context.Context {
	if id == "" {
		return ctx
	}
	return context.WithValue(ctx, runIDKey, id)
}

// WithBackfill returns ctx marked as the work of backfill id (LogHandler
// adds backfill_id).
func WithBackfill(ctx context.Context, id string) context.Context {
	if id == "" {
		return ctx
	}
	return context.WithValue(ctx, backfillIDKey, id)
}

// RunID is the run ctx was marked with by WithRun, or "".
func RunID(ctx context.Context) string { s, _ := ctx.Value(runIDKey).(string); return s }

// BackfillID is the backfill ctx was marked with by WithBackfill, or "".
func BackfillID(ctx context.Context) string { s, _ := ctx.Value(backfillIDKey).(string); return s }
