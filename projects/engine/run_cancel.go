package engine

import (
	"context"
	"fmt"
)

// activeRuns are the runs this process is computing, by run id, so a
// person can cancel one from the run page. A backfill's runs are here too:
// cancelling one ends that partition cancelled and the backfill goes on
// (cancel the backfill to stop them all).
type activeRuns map[string]context.CancelCauseFunc

// ErrRunCancelled is the cause a cancelled run's context carries.
var ErrRunCancelled = fmt.Errorf("cancelled by a user")

// track registers a run and returns its context and the func that forgets it.
func (e *Engine) track(ctx context.Context, runID string) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	e.mu.Lock()
	if e.active == nil {
		e.active = activeRuns{}
	}
	e.active[runID] = cancel
	e.mu.Unlock()
	return ctx, func() {
		e.mu.Lock()
		delete(e.active, runID)
		e.mu.Unlock()
		cancel(nil)
	}
}

// RunNotActiveError says a run is not being computed by this process, so
// there is nothing to cancel (it ended, or another process runs it).
type RunNotActiveError struct {
	RunID string
	State State // its recorded state, "" when unknown
}

func (e *RunNotActiveError) Error() string {
	if e.State != "" && e.State.Final() {
		return fmt.Sprintf("run %s already ended (%s); nothing to cancel", e.RunID, e.State)
	}
	return fmt.Sprintf("run %s is not running in this process (state %q); nothing to cancel", e.RunID, e.State)
}

// CancelRun interrupts a run this process is computing: its running blocks
// are interrupted, the rest are not started, and it ends cancelled. A run
// that is not active here is a *RunNotActiveError (a NotFoundError when no
// such run was ever recorded).
func (e *Engine) CancelRun(ctx context.Context, runID string) error {
	e.mu.Lock()
	cancel := e.active[runID]
	e.mu.Unlock()
	if cancel != nil {
		cancel(ErrRunCancelled)
		return nil
	}
	r, err := e.runByID(ctx, runID)
	if err != nil {
		return err
	}
	return &RunNotActiveError{RunID: runID, State: r.State}
}
