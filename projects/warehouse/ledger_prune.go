package warehouse

import (
	"context"
	"fmt"
	"strings"
)

// The export ledger and the block states grow with every run. Pruning
// keeps what exactly-once needs and drops the rest:
//
//   - An export's row is what stops its run from exporting again (a retry,
//     a resume, a worker's redelivery ask by run id), so a row stays while
//     its run may still come back: an export not completed, or one whose
//     run has not ended in success, is kept. A run that succeeded never
//     runs again under its id (a resume skips it; a new run is a new id).
//   - Export versions are numbered per (product, partition) from the
//     newest row, so the newest row of each partition is always kept: a
//     key is never handed out twice. Beyond that the ledger keeps as many
//     rows per partition as the warehouse keeps versions (retention).
//   - A block state belongs to its version: once retention or a discard
//     deleted the version, no run can start from or replay that state (both
//     read the versions that exist), so its row goes too.

// PruneLedgers deletes the export rows and block states described above.
// succeeded reports which of the given run ids ended in success (the
// engine's run records answer); it is given the ledger's run_id column,
// which is the task label of the export (run/block[/item]). It returns how
// many rows went.
func (w *Warehouse) PruneLedgers(ctx context.Context, succeeded func(ctx context.Context, runIDs []string) (map[string]bool, error)) (int, error) {
	if w.readOnly {
		return 0, nil
	}
	keep := w.retention
	if keep < 1 {
		keep = DefaultRetention
	}
	type row struct {
		product, partition, run string
		version                 int
	}
	// Candidates: completed rows beyond the newest keep of their partition.
	rows, err := w.db.QueryContext(ctx, `SELECT product, partition, version, run_id FROM (
		SELECT product, partition, version, run_id, completed_at,
			row_number() OVER (PARTITION BY product, partition ORDER BY version DESC) AS rank
		FROM _strata.exports) WHERE rank > ? AND completed_at IS NOT NULL`, keep)
	if err != nil {
		return 0, fmt.Errorf("prune the export ledger: %w", err)
	}
	var cands []row
	runs := map[string]bool{}
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.product, &r.partition, &r.version, &r.run); err != nil {
			rows.Close()
			return 0, fmt.Errorf("prune the export ledger: %w", err)
		}
		cands = append(cands, r)
		runs[r.run] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("prune the export ledger: %w", err)
	}
	var victims []row
	if len(cands) > 0 {
		ids := make([]string, 0, len(runs))
		for id := range runs {
			ids = append(ids, id)
		}
		ok, err := succeeded(ctx, ids)
		if err != nil {
			return 0, fmt.Errorf("prune the export ledger: %w", err)
		}
		for _, r := range cands {
			if ok[r.run] {
				victims = append(victims, r)
			}
		}
	}
	pruned := 0
	err = w.write(ctx, func(tx *writeTx) error {
		pruned = 0
		const chunk = 300
		for i := 0; i < len(victims); i += chunk {
			part := victims[i:min(i+chunk, len(victims))]
			var b strings.Builder
			args := make([]any, 0, 3*len(part))
			for j, r := range part {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString("(?, ?, ?::INTEGER)")
				args = append(args, r.product, r.partition, r.version)
			}
			// Candidates stay beyond the newest rows of their partition: rows
			// are only ever added above them.
			if err := tx.exec(`DELETE FROM _strata.exports AS e USING (VALUES `+b.String()+`) AS v(p, k, n)
				WHERE e.product = v.p AND e.partition = v.k AND e.version = v.n AND e.completed_at IS NOT NULL`, args...); err != nil {
				return err
			}
			pruned += len(part)
		}
		// Credits of versions retention dropped match nothing any more
		// (version_credit.go); they go with them.
		if err := tx.exec(`DELETE FROM _strata.code_credits c WHERE NOT EXISTS (
			SELECT 1 FROM _strata.versions v WHERE v.product = c.product AND v.partition = c.partition AND v.version = c.version)`); err != nil {
			return err
		}
		var states int
		if err := tx.conn.QueryRowContext(tx.ctx, `SELECT count(*) FROM _strata.version_state s WHERE NOT EXISTS (
			SELECT 1 FROM _strata.versions v WHERE v.product = s.product AND v.partition = s.partition AND v.version = s.version)`).Scan(&states); err != nil {
			return err
		}
		if states == 0 {
			return nil
		}
		pruned += states
		return tx.exec(`DELETE FROM _strata.version_state s WHERE NOT EXISTS (
			SELECT 1 FROM _strata.versions v WHERE v.product = s.product AND v.partition = s.partition AND v.version = s.version)`)
	})
	if err != nil {
		return 0, fmt.Errorf("prune the export ledger and block states: %w", err)
	}
	return pruned, nil
}
