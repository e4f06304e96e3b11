package engine

import (
	"context"
	"log/slog"
	"strings"
)

// pruneLedgers drops the export ledger rows and block states that
// exactly-once no longer needs (warehouse/ledger_prune.go), when a backfill
// ends. A failure loses nothing: the rows stay for the next time.
func (e *Engine) pruneLedgers(ctx context.Context) {
	if _, err := e.wh.PruneLedgers(ctx, e.runsSucceeded); err != nil {
		slog.WarnContext(ctx, "export ledger: not pruned (kept for the next backfill's end)", "err", err)
	}
}

// runsSucceeded reports which of the ledger's task labels (run/block or
// run/block/item: taskLabel) belong to a run that ended in success, by the
// run records: a run that succeeded never runs again under its id.
func (e *Engine) runsSucceeded(ctx context.Context, labels []string) (map[string]bool, error) {
	// The run id is a prefix of the label up to a slash.
	prefixes := map[string][]string{}
	var ids []string
	for _, l := range labels {
		for i := 0; i < len(l); i++ {
			if l[i] == '/' {
				if _, seen := prefixes[l[:i]]; !seen {
					ids = append(ids, l[:i])
				}
				prefixes[l[:i]] = append(prefixes[l[:i]], l)
			}
		}
	}
	ok, err := e.succeededRuns(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for id := range ok {
		for _, l := range prefixes[id] {
			out[l] = true
		}
	}
	return out, nil
}

// succeededRuns is the subset of ids whose run ended in success.
func (e *Engine) succeededRuns(ctx context.Context, ids []string) (map[string]bool, error) {
	if err := e.store.Write(ctx); err != nil {
		return nil, err
	}
	out := map[string]bool{}
	const chunk = 500
	for i := 0; i < len(ids); i += chunk {
		part := ids[i:min(i+chunk, len(ids))]
		args := make([]any, len(part))
		for j, id := range part {
			args[j] = id
		}
		rows, err := e.wh.DB().QueryContext(ctx, `SELECT run_id FROM _strata.run_events
			WHERE block_id = '' AND run_id IN (?`+strings.Repeat(", ?", len(part)-1)+`)
			GROUP BY run_id HAVING arg_max(state, seq) = 'succeeded'`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}
