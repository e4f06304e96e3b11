package warehouse

import (
	"context"
	"database/sql/driver"
)

// CommitHook writes other state of the same file (the engine's run events)
// inside every write transaction, just before its COMMIT: state that rides
// along with publishes costs no transaction of its own, and a publish and
// the run state written with it are durable together or not at all.
//
// BeforeCommit runs on the writer connection once the transaction's bodies
// all succeeded, with the values their publishes returned (PublishThen);
// an error from it rolls the transaction back. AfterCommit follows every
// BeforeCommit with the transaction's outcome (nil: committed). Both run
// under the write lock, so they see the transactions one at a time, in
// commit order; they must not call the Warehouse.
type CommitHook interface {
	BeforeCommit(conn driver.Conn, rideAlong []any) error
	AfterCommit(err error)
}

// SetCommitHook installs h for every later write transaction (nil removes it).
func (w *Warehouse) SetCommitHook(h CommitHook) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.hook = h
}

// Then runs inside a publish's transaction once its outputs are written:
// versions are the new versions, conflict the partitions whose newer work
// kept them from becoming current (nil: none). What it returns goes to the
// CommitHook's BeforeCommit of the same transaction, so it is committed with
// the versions or rolled back with them; when a grouped transaction is
// retried, Then runs again in the retry.
type Then func(versions []Version, conflict *ConflictError) any

// PublishThen is Publish whose transaction also carries what then returns
// to the CommitHook (the run's final state).
func (w *Warehouse) PublishThen(ctx context.Context, outs []Output, then Then) ([]Version, error) {
	return w.writeOutputs(ctx, outs, true, then)
}

// StageThen is Stage whose transaction also carries what then returns to
// the CommitHook.
func (w *Warehouse) StageThen(ctx context.Context, outs []Output, then Then) ([]Version, error) {
	return w.writeOutputs(ctx, outs, false, then)
}

// Flush commits a transaction with no body of its own, for the CommitHook's
// state when no publish is coming to carry it: it joins the writes queued
// meanwhile like any grouped write.
func (w *Warehouse) Flush(ctx context.Context) error {
	return w.writeGrouped(ctx, func(*writeTx) error { return nil })
}

// beforeCommit runs the hook in tx (true: it ran, and AfterCommit is due).
func (tx *writeTx) beforeCommit() (bool, error) {
	h := tx.w.hook
	if h == nil {
		return false, nil
	}
	var err error
	rerr := tx.conn.Raw(func(dc any) error {
		err = h.BeforeCommit(dc.(driver.Conn), tx.rideAlong)
		return nil
	})
	if rerr != nil {
		err = rerr
	}
	return true, err
}

// conflictVersions is a copy of c with each conflict's kept version filled
// in, as writeOutputs reports it once committed (nil for nil).
func conflictVersions(c *ConflictError, versions []Version) *ConflictError {
	if c == nil {
		return nil
	}
	out := &ConflictError{Conflicts: append([]Conflict(nil), c.Conflicts...)}
	for i := range out.Conflicts {
		out.Conflicts[i].Version = versions[out.Conflicts[i].index].Version
	}
	return out
}
