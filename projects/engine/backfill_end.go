package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// endRetryMax bounds the wait between attempts to record a backfill's end,
// and endRetryFor how long finish keeps trying.
const (
	endRetryMax = 30 * time.Second
	endRetryFor = 10 * time.Minute
)

// finish records how the backfill ended (finishOnce). When that fails
// because the warehouse could not be written (a DuckLake whose Postgres
// catalog restarts, a full disk), the backfill would otherwise stay
// "running" in the catalog with nothing running it, until the process
// restarts, and a retry would be refused as still running. So while the
// recorded state is still running, finish keeps trying, with backoff, to
// record that the backfill failed and why; the retry of a failed backfill
// then runs what did not succeed. A shutdown stops trying: the next start
// resumes the backfill, as it resumes any interrupted one.
func (b *backfillRun) finish(err error) error {
	ferr := b.finishOnce(err)
	if ferr == nil {
		return nil
	}
	e := b.e
	deadline := time.Now().Add(endRetryFor)
	for delay := time.Second; ; delay = min(2*delay, endRetryMax) {
		if b.ctx.Err() != nil || time.Now().After(deadline) {
			return ferr
		}
		state, qerr := e.recordedBackfillState(context.Background(), b.id)
		if errors.Is(qerr, sql.ErrConnDone) || (qerr != nil && strings.Contains(qerr.Error(), "database is closed")) {
			return ferr // the warehouse was closed: this process is ending
		}
		if qerr == nil && state != StateRunning {
			return ferr
		}
		if qerr == nil {
			msg := fmt.Sprintf("could not record its end (%v); retry it to run what did not succeed", ferr)
			if e.backfillEvent(context.Background(), b.id, StateFailed, msg) == nil {
				return ferr
			}
		}
		select {
		case <-b.ctx.Done():
			return ferr
		case <-time.After(delay):
		}
	}
}

// recordedBackfillState is the backfill's state as its events say.
func (e *Engine) recordedBackfillState(ctx context.Context, id string) (State, error) {
	var s string
	err := e.wh.DB().QueryRowContext(ctx, `SELECT arg_max(state, event_at) FROM _strata.backfill_events WHERE backfill_id = ?`, id).Scan(&s)
	return State(s), err
}
