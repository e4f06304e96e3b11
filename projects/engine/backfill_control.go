package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/stratahq/strata/projects/snapshot"
	"github.com/stratahq/strata/projects/warehouse"
)

// Wait blocks until a backfill running in this process ends.
func (e *Engine) Wait(ctx context.Context, id string) (*BackfillStatus, error) {
	if b := e.running(id); b != nil {
		select {
		case <-b.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return e.Backfill(context.Background(), id)
}

// Cancel stops a backfill now: its running kernels are interrupted, and an
// atomic backfill's staged versions are discarded.
func (e *Engine) Cancel(ctx context.Context, id string) error {
	if b := e.running(id); b != nil {
		b.cancelledByUser.Store(true)
		b.cancel()
		<-b.done
		return nil
	}
	st, err := e.Backfill(ctx, id)
	if err != nil {
		return err
	}
	if st.State.Final() {
		return fmt.Errorf("backfill %s already %s", id, st.State)
	}
	if st.State == StateReview || st.State == StateRolledBack {
		return fmt.Errorf("backfill %s is %s: discard it (strata backfill discard) or promote it instead", id, st.State)
	}
	if st.Spec.Publish == PublishAtomic || st.Spec.Publish == PublishReview {
		if err := e.discardStaged(ctx, id); err != nil {
			return err
		}
	}
	return e.backfillEvent(ctx, id, StateCancelled, "cancelled while not running")
}

// Pause stops starting new partitions; running ones finish.
func (e *Engine) Pause(ctx context.Context, id string) error {
	b := e.running(id)
	if b == nil {
		return fmt.Errorf("backfill %s is not running in this process", id)
	}
	b.win.Pause()
	return e.backfillEvent(ctx, id, StatePaused, "paused")
}

// Resume continues a paused backfill, or one that a crash, kill or shutdown
// interrupted: partitions that already succeeded are not run again.
func (e *Engine) Resume(ctx context.Context, id string) (*BackfillStatus, error) {
	if b := e.running(id); b != nil {
		b.win.Resume()
		if err := e.backfillEvent(ctx, id, StateRunning, "resumed"); err != nil {
			return nil, err
		}
		return e.Backfill(ctx, id)
	}
	return e.restart(ctx, id, false, false, nil)
}

// Retry re-runs the partitions of a backfill that did not succeed: failed,
// cancelled (or never started because of the cancel), or left running by a
// crash. Succeeded and skipped ones are not run again. It runs the
// backfill's pipeline version, or with useCurrentCode a new snapshot of the
// files as they are now (which the backfill then runs to the end).
func (e *Engine) Retry(ctx context.Context, id string, useCurrentCode bool) (*BackfillStatus, error) {
	if e.running(id) != nil {
		return nil, fmt.Errorf("backfill %s is still running; retry it when it ends", id)
	}
	// Nothing to rerun: a retry with the current code would only relabel
	// the backfill with a version that computed none of its partitions.
	// (A plain retry of a finished backfill passes over it, changing
	// nothing.)
	rp, err := e.PlanRetry(ctx, id, useCurrentCode)
	if err != nil {
		return nil, err
	}
	if useCurrentCode && rp.ToRun == 0 {
		st, err := e.Backfill(ctx, id)
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("backfill %s is %s: nothing to retry (every partition succeeded, was skipped or is a conflict to resolve with promote-anyway or keep-newer)", id, st.State)
	}
	return e.restart(ctx, id, true, useCurrentCode, nil)
}

// restart runs the backfill again; only, when set, limits a retry to those
// slots (run ids): the rest keep their state (RetryPartitions).
func (e *Engine) restart(ctx context.Context, id string, retry, useCurrentCode bool, only map[string]bool) (*BackfillStatus, error) {
	spec, err := e.backfillSpec(ctx, id)
	if err != nil {
		return nil, err
	}
	var pin *pinned
	msg := "resumed"
	if retry {
		msg = "retrying failed and cancelled partitions"
	}
	if useCurrentCode {
		old, err := e.backfillVersion(ctx, id)
		if err != nil {
			return nil, err
		}
		if pin, err = e.pin(spec.Pipeline); err != nil {
			return nil, err
		}
		// As a launch: code that does not compile is refused before the
		// backfill moves to it (backfill_compile.go).
		if err := checkCompiles(pin); err != nil {
			return nil, err
		}
		if err := e.setBackfillVersion(ctx, id, pin.hash); err != nil {
			return nil, err
		}
		msg += fmt.Sprintf(" with the current code: pipeline version %s (was %s)", snapshot.Short(pin.hash), snapshot.Short(old))
	} else if pin, err = e.backfillPin(ctx, id, spec.Pipeline); err != nil {
		// Nothing can run it now: a backfill the interruption left
		// "running" is recorded failed with the reason (its snapshot's
		// files are gone or were edited), not left "running" with nothing
		// running; a retry with the current code continues it.
		if st, serr := e.Backfill(ctx, id); serr == nil && (st.State == StateRunning || st.State == StatePaused) {
			_ = e.backfillEvent(ctx, id, StateFailed, fmt.Sprintf("cannot resume: %v", err))
		}
		return nil, err
	}
	t, err := e.target(ctx, spec, pin.pl)
	if err != nil {
		return nil, err
	}
	t.pin = pin
	if err := e.retainWhatItWrote(ctx, id); err != nil {
		return nil, err
	}
	if err := e.backfillEvent(ctx, id, StateRunning, msg); err != nil {
		return nil, err
	}
	e.startBackfill(id, t, retry, only)
	return e.Backfill(ctx, id)
}

// retainWhatItWrote puts every partition the backfill's runs wrote on the
// warehouse's list that waits for retention, which its end applies. Its
// publishes left their retention to its end (warehouse/retention_late.go);
// after a kill the list is gone, and the partitions published before it,
// which this pass does not write again, kept a version more than retention
// allows after the resumed backfill said it had ended.
func (e *Engine) retainWhatItWrote(ctx context.Context, id string) error {
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT DISTINCT product, partition FROM _strata.versions WHERE starts_with(run_id, ?)`, id+":")
	if err != nil {
		return fmt.Errorf("partitions backfill %s wrote: %w", id, err)
	}
	defer rows.Close()
	var parts []warehouse.VersionRef
	for rows.Next() {
		var r warehouse.VersionRef
		if err := rows.Scan(&r.Product, &r.Partition); err != nil {
			return err
		}
		parts = append(parts, r)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	e.wh.RetainLate(parts)
	return nil
}

// RecoverBackfills resumes the backfills that were running when this
// process (or an earlier one) stopped without finishing them.
func (e *Engine) RecoverBackfills(ctx context.Context) ([]string, error) {
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT backfill_id, arg_max(state, event_at) FROM _strata.backfill_events GROUP BY backfill_id`)
	if err != nil {
		return nil, err
	}
	var ids []string
	for rows.Next() {
		var id, s string
		if err := rows.Scan(&id, &s); err != nil {
			rows.Close()
			return nil, err
		}
		if State(s) == StateRunning && e.running(id) == nil {
			ids = append(ids, id)
		}
	}
	rows.Close()
	// One that cannot resume (restart records why) does not keep the
	// others from resuming.
	var resumed []string
	var errs []error
	for _, id := range ids {
		if _, err := e.restart(ctx, id, false, false, nil); err != nil {
			errs = append(errs, err)
			continue
		}
		resumed = append(resumed, id)
	}
	return resumed, errors.Join(errs...)
}

// Shutdown stops this process's backfills without marking them finished:
// they resume on the next start (RecoverBackfills).
func (e *Engine) Shutdown(ctx context.Context) {
	e.mu.Lock()
	var bs []*backfillRun
	for _, b := range e.backfills {
		bs = append(bs, b)
	}
	e.mu.Unlock()
	for _, b := range bs {
		b.cancel()
	}
	for _, b := range bs {
		select {
		case <-b.done:
		case <-ctx.Done():
			return
		}
	}
}

// pollControl applies the control requests another process handed to this
// run instance (see control_file.go) and acknowledges each; requests for
// another instance, or expired, are dropped unanswered.
func (b *backfillRun) pollControl(now time.Time) {
	dir := b.e.project().Dir
	for _, r := range takeRequests(dir, b.id, b.instance.Instance, now) {
		switch r.Action {
		case "cancel":
			b.cancelledByUser.Store(true)
			b.cancel()
			// Answered once the kernels have stopped and the backfill
			// recorded its end, so the asker can say it is done.
			go func(r controlRequest) {
				<-b.done
				acknowledge(dir, r, nil, fmt.Sprintf("backfill %s cancelled by pid %d", b.id, os.Getpid()))
			}(r)
		case "pause":
			err := b.e.Pause(context.Background(), b.id)
			acknowledge(dir, r, err, fmt.Sprintf("backfill %s paused by pid %d: running partitions finish, no new ones start", b.id, os.Getpid()))
		case "resume":
			_, err := b.e.Resume(context.Background(), b.id)
			acknowledge(dir, r, err, fmt.Sprintf("backfill %s resumed by pid %d", b.id, os.Getpid()))
		case "status": // control_status.go; a read, answered beside the progress ticks
			go b.answerStatus(dir, r)
		default:
			acknowledge(dir, r, fmt.Errorf("unknown action %q", r.Action), "")
		}
	}
}
