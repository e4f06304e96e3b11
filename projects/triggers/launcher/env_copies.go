package launcher

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// A firing's copies into the environments that follow triggers are
// recorded before anything of the firing launches (intent first, as the
// firing itself is): one row per (work, owner) in _strata.trigger_copies.
// On a restart, Resume launches every recorded copy that has not ended,
// whatever became of prod's work: a crash after prod's work was launched,
// or even ended, and before its copy was launched (or while a copy run was
// running) no longer loses that copy. Copies run under deterministic ids
// (intoID), so launching one again never makes a second.
const copiesSchema = `
CREATE TABLE IF NOT EXISTS _strata.trigger_copies (
	work_id VARCHAR, owner VARCHAR, pipeline VARCHAR, work_kind VARCHAR, from_key VARCHAR, to_key VARCHAR,
	origin VARCHAR, recorded_at TIMESTAMPTZ, box VARCHAR);
ALTER TABLE _strata.trigger_copies ADD COLUMN IF NOT EXISTS box VARCHAR;
`

// copyIntent is one recorded copy of a firing's work into an environment.
type copyIntent struct {
	Firing        // the firing's work: Pipeline, WorkID, WorkKind, From, To, Origin, its cells
	Owner  string // the environment's pin owner
}

// recordCopies records f's copies for owners, those not recorded yet, in
// one transaction, and returns every owner recorded for f's work.
func (s *tickStore) recordCopies(ctx context.Context, f Firing, owners []string, now time.Time) ([]string, error) {
	var all []string
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		have := map[string]bool{}
		rows, err := tx.QueryContext(ctx, `SELECT DISTINCT owner FROM _strata.trigger_copies WHERE work_id = ?`, f.WorkID)
		if err != nil {
			return err
		}
		for rows.Next() {
			var o string
			if err := rows.Scan(&o); err != nil {
				rows.Close()
				return err
			}
			have[o] = true
			all = append(all, o)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, o := range owners {
			if have[o] {
				continue
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO _strata.trigger_copies
				(work_id, owner, pipeline, work_kind, from_key, to_key, origin, recorded_at, box) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				f.WorkID, o, f.Pipeline, f.WorkKind, f.From, f.To, f.Origin, now.UTC(), encodeBox(f)); err != nil {
				return err
			}
			have[o] = true
			all = append(all, o)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("record the copies of %s into environments: %w", f.WorkID, err)
	}
	return all, nil
}

// copies lists every recorded copy, oldest first.
func (s *tickStore) copies(ctx context.Context) ([]copyIntent, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT ON (work_id, owner) work_id, owner, pipeline, work_kind, from_key, to_key, origin, recorded_at,
		coalesce(box, '') FROM _strata.trigger_copies ORDER BY work_id, owner, recorded_at`)
	if err != nil {
		return nil, fmt.Errorf("recorded trigger copies: %w", err)
	}
	defer rows.Close()
	var out []copyIntent
	for rows.Next() {
		var c copyIntent
		var box string
		if err := rows.Scan(&c.WorkID, &c.Owner, &c.Pipeline, &c.WorkKind, &c.From, &c.To, &c.Origin, &c.RecordedAt, &box); err != nil {
			return nil, err
		}
		// A new-key firing's copy runs the same cells as prod's work.
		if err := decodeBox(box, &c.Firing); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
