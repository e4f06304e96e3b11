package launcher

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Upstream changes an event trigger has not fired for yet are recorded in
// _strata.trigger_pending as they arrive, and the firing that covers them
// deletes them in its own transaction. A restart (a shutdown or a crash
// while the upstream backfill still runs, or within the quiet period)
// loads them back into the coalescer, so the downstream partitions they
// affect still run once; held only in memory they were lost, and the
// downstream kept data computed from the replaced upstream versions.
//
// seq orders the rows: a flush clears what its batch held (seq up to the
// batch's last), never a change that arrived while it fired.
const pendingSchema = `CREATE TABLE IF NOT EXISTS _strata.trigger_pending (
	pipeline VARCHAR, trigger_id VARCHAR, product VARCHAR, partition VARCHAR,
	by_id VARCHAR, by_backfill BOOLEAN, noted_at TIMESTAMPTZ, seq BIGINT)`

// pendingRow is one upstream partition a trigger has to fire for.
type pendingRow struct {
	pipeline, trigger, product, partition, by string
	byBackfill                                bool
	seq                                       int64
}

// lastPending is the newest recorded change's seq (0 for none).
func (s *tickStore) lastPending(ctx context.Context) (int64, error) {
	var seq int64
	err := s.db.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM _strata.trigger_pending`).Scan(&seq)
	return seq, err
}

// notePending records upstream changes in one transaction.
func (s *tickStore) notePending(ctx context.Context, at time.Time, rows []pendingRow) error {
	if len(rows) == 0 {
		return nil
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		for _, r := range rows {
			if _, err := tx.ExecContext(ctx, `INSERT INTO _strata.trigger_pending VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
				r.pipeline, r.trigger, r.product, r.partition, r.by, r.byBackfill, at.UTC(), r.seq); err != nil {
				return fmt.Errorf("record upstream change for trigger %s/%s: %w", r.pipeline, r.trigger, err)
			}
		}
		return nil
	})
}

// pending lists what was recorded and not fired for, oldest first.
func (s *tickStore) pending(ctx context.Context) ([]pendingRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT pipeline, trigger_id, product, partition, by_id, by_backfill, seq
		FROM _strata.trigger_pending ORDER BY seq`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []pendingRow
	for rows.Next() {
		var r pendingRow
		if err := rows.Scan(&r.pipeline, &r.trigger, &r.product, &r.partition, &r.by, &r.byBackfill, &r.seq); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// recordFired writes the firings of a batch and clears the changes it
// covered (those of the trigger up to seq) in one transaction.
func (s *tickStore) recordFired(ctx context.Context, pipeline, trigger string, seq int64, fs ...Firing) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := insertFirings(ctx, tx, fs); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM _strata.trigger_pending WHERE pipeline = ? AND trigger_id = ? AND seq <= ?`,
			pipeline, trigger, seq); err != nil {
			return fmt.Errorf("clear upstream changes of trigger %s/%s: %w", pipeline, trigger, err)
		}
		return nil
	})
}
