package engine

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/stratahq/strata/projects/partitions"
)

// The partition grid of a backfill, page by page. A backfill of 365 days ×
// 20 regions × 500 customers has 3.65 million cells: a page of the grid
// must cost what the page holds, not what the backfill holds. So a page
// in order steps over the cells before it (IterBoxFrom) and reads the run
// log and the catalog for its own keys only; a page of one state reads
// the slots in that state (usually few: the failed ones) and walks the
// box's keys without keeping them. Only the state of cells nothing
// started (queued, or cancelled once the backfill is) still reads every
// slot with an event, as that is the complement of the log.

// PartitionQuery selects a page of a backfill's partitions.
type PartitionQuery struct {
	State string // one state only ("": every state)
	// Where narrows the value dimensions to these values (the grid's
	// filter: "every customer of region eu"); the page then holds pipeline
	// cells only, no rollups.
	Where  map[string][]string
	Offset int
	Limit  int // < 0: all
}

// BackfillPartitions pages through a backfill's partitions in order
// (pipeline partitions first, then rollups), optionally one state only; it
// also returns how many match.
func (e *Engine) BackfillPartitions(ctx context.Context, id, state string, offset, limit int) ([]PartitionStatus, int, error) {
	return e.BackfillPartitionsQuery(ctx, id, PartitionQuery{State: state, Offset: offset, Limit: limit})
}

// maxPage is the largest page read by its keys; a larger one (every
// partition, for a retry or the CLI's list) walks the box with every
// slot's state instead of naming its keys to the database.
const maxPage = 100_000

// lastAttempt is what the run log says of a slot's latest attempt.
type lastAttempt struct {
	state State
	run   string
	err   string
	dur   float64
}

// BackfillPartitionsQuery is BackfillPartitions with the grid's filter by
// dimension values. An unknown dimension or value is a *SpecError.
func (e *Engine) BackfillPartitionsQuery(ctx context.Context, id string, q PartitionQuery) ([]PartitionStatus, int, error) {
	spec, err := e.backfillSpec(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	t, err := e.backfillTarget(ctx, id, spec)
	if err != nil {
		return nil, 0, err
	}
	if err := e.store.Write(ctx); err != nil {
		return nil, 0, err
	}
	box, err := narrowBox(t, q.Where)
	if err != nil {
		return nil, 0, err
	}
	rollups := len(q.Where) == 0
	cells, err := t.pspec.CountBox(box)
	if err != nil {
		return nil, 0, err
	}
	// A cancelled backfill's partitions that never started are cancelled,
	// not queued: nothing will start them but a retry or resume.
	notStarted := StateQueued
	if s, err := e.recordedBackfillState(ctx, id); err == nil && s == StateCancelled {
		notStarted = StateCancelled
	}
	var out []PartitionStatus
	var n int
	switch {
	case q.State == "" && q.Limit >= 0 && q.Limit <= maxPage && (!rollups || t.rollups == 0 || q.Offset+q.Limit <= cells):
		out, err = e.pageInOrder(ctx, id, t, box, notStarted, q)
		n = cells
		if rollups {
			n += t.rollups
		}
	case q.State != "" && State(q.State) != notStarted:
		var info map[string]lastAttempt
		if info, err = e.slotsInState(ctx, id, State(q.State)); err != nil {
			break
		}
		if rollups && t.rollups > 0 {
			out, n, err = walkBox(id, t, box, rollups, notStarted, q, info)
		} else {
			out, n, err = pageOfSlots(id, t, box, q, info)
		}
	default:
		// The complement of the log (cells nothing started), or the tail
		// of rollups: every slot is read.
		var info map[string]lastAttempt
		if info, err = e.slotsInState(ctx, id, ""); err == nil {
			out, n, err = walkBox(id, t, box, rollups, notStarted, q, info)
		}
	}
	if err != nil {
		return nil, 0, err
	}
	keys := make([]string, len(out))
	for i, p := range out {
		keys[i] = p.Key
	}
	lineage, err := e.pageLineage(ctx, id, q.State == "" && dense(t, q), keys)
	if err != nil {
		return nil, 0, err
	}
	for i := range out {
		out[i].Snapshot = lineage[slotFor(id, out[i])]
	}
	return out, n, nil
}

// narrowBox is the backfill's box with the value dimensions narrowed to
// where's values (the values of both, in the dimension's order).
func narrowBox(t *target, where map[string][]string) (partitions.Box, error) {
	box := t.box
	if len(where) == 0 {
		return box, nil
	}
	sel, err := t.pspec.Selection(partitions.Box{From: box.From, To: box.To, Where: where})
	if err != nil {
		return box, &SpecError{err}
	}
	planned, err := t.pspec.Selection(box)
	if err != nil {
		return box, err
	}
	narrowed := maps.Clone(box.Where)
	if narrowed == nil {
		narrowed = map[string][]string{}
	}
	for i, d := range t.pspec.Dims {
		if _, named := where[d.Name]; !named {
			continue
		}
		var both []string
		for _, v := range sel[i] {
			if slices.Contains(planned[i], v) {
				both = append(both, v)
			}
		}
		if len(both) == 0 {
			return box, &SpecError{fmt.Errorf("where %s=%v: the backfill targets none of these values (it targets %d values of %s)", d.Name, where[d.Name], len(planned[i]), d.Name)}
		}
		narrowed[d.Name] = both
	}
	box.Where = narrowed
	return box, nil
}

// pageInOrder is the page of box's cells from q.Offset, every state: only
// the page's keys are built and only their events read.
func (e *Engine) pageInOrder(ctx context.Context, id string, t *target, box partitions.Box, notStarted State, q PartitionQuery) ([]PartitionStatus, error) {
	it, err := t.pspec.IterBoxFrom(box, q.Offset)
	if err != nil {
		return nil, err
	}
	var out []PartitionStatus
	for p := range it {
		if q.Limit >= 0 && len(out) >= q.Limit {
			break
		}
		out = append(out, PartitionStatus{Key: p.Key, Interval: string(t.pspec.Interval), State: notStarted})
	}
	if len(out) == 0 {
		return out, nil
	}
	keys := make([]string, len(out))
	for i, p := range out {
		keys[i] = p.Key
	}
	cond, args := keysFilter("partition_key", dense(t, q), keys)
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT `+slotSQL+` AS slot, arg_max(state, seq), arg_max(run_id, seq), arg_max(error, seq), arg_max(duration_ms, seq)
		FROM _strata.run_events WHERE backfill_id = ? AND block_id = '' AND `+cond+` GROUP BY slot`, append([]any{id}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("backfill %s: partitions: %w", id, err)
	}
	info, err := scanLastAttempts(rows)
	if err != nil {
		return nil, err
	}
	for i := range out {
		if l, ok := info[runIDFor(id, out[i].Key)]; ok {
			out[i].State, out[i].Error, out[i].Duration, out[i].RunID = l.state, l.err, l.dur, l.run
		}
	}
	return out, nil
}

// keysFilter is a condition on col selecting at least keys, the keys of a
// page in the box's order, and its arguments. For a dense page (see
// dense), the keys' range does
// (time outermost: a page spans a few time keys, and the log and the
// catalog are written roughly in that order, so DuckDB skips the rest by
// its min/max indexes); otherwise their list, which DuckDB must parse.
// Rows of keys outside the page are dropped by the caller's lookups.
func keysFilter(col string, dense bool, keys []string) (string, []any) {
	if dense {
		return col + ` BETWEEN ? AND ?`, []any{slices.Min(keys), slices.Max(keys)}
	}
	return col + ` IN ` + sqlArray(keys), nil
}

// dense says whether a page of q, in the box's order, is read by its
// keys' range (keysFilter): its keys begin with their time part and no
// filter thins them out. A filtered page (one region and customer: a cell
// a day) spans every time key, so its range would be the whole backfill.
func dense(t *target, q PartitionQuery) bool {
	return t.pspec.Interval != partitions.None && t.pspec.TimePos == 0 && len(q.Where) == 0
}

// slotsInState reads the latest attempt of each slot of the backfill whose
// latest state is state ("": every slot with an event). A slot whose
// latest state is state has an event in that state: only those slots'
// events are grouped (the failed ones of millions are a few thousand).
func (e *Engine) slotsInState(ctx context.Context, id string, state State) (map[string]lastAttempt, error) {
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT slot, st, run, err, dur FROM (
		SELECT `+slotSQL+` AS slot, arg_max(state, seq) AS st, arg_max(run_id, seq) AS run, arg_max(error, seq) AS err, arg_max(duration_ms, seq) AS dur
		FROM _strata.run_events WHERE backfill_id = ? AND block_id = '' AND (? = '' OR partition_key IN (
			SELECT partition_key FROM _strata.run_events WHERE backfill_id = ? AND block_id = '' AND state = ?))
		GROUP BY slot) WHERE ? = '' OR st = ?`, id, string(state), id, string(state), string(state), string(state))
	if err != nil {
		return nil, fmt.Errorf("backfill %s: partitions: %w", id, err)
	}
	return scanLastAttempts(rows)
}

// scanLastAttempts reads rows of (slot, state, run, error, duration), the
// latest attempt of each slot, and closes them.
func scanLastAttempts(rows *sql.Rows) (map[string]lastAttempt, error) {
	defer rows.Close()
	info := map[string]lastAttempt{}
	for rows.Next() {
		var slot, s string
		var l lastAttempt
		if err := rows.Scan(&slot, &s, &l.run, &l.err, &l.dur); err != nil {
			return nil, err
		}
		l.state = State(s)
		info[slot] = l
	}
	return info, rows.Err()
}

// pageOfSlots pages through the cells of box that info holds, in the
// box's order, without walking the box.
func pageOfSlots(id string, t *target, box partitions.Box, q PartitionQuery, info map[string]lastAttempt) ([]PartitionStatus, int, error) {
	index, err := t.pspec.BoxIndex(box)
	if err != nil {
		return nil, 0, err
	}
	type at struct {
		i   int
		key string
	}
	var in []at
	for slot := range info {
		key, ok := strings.CutPrefix(slot, id+":")
		if !ok {
			continue
		}
		if i, ok := index(key); ok {
			in = append(in, at{i, key})
		}
	}
	slices.SortFunc(in, func(a, b at) int { return cmp.Compare(a.i, b.i) })
	page := in[min(q.Offset, len(in)):]
	if q.Limit >= 0 {
		page = page[:min(q.Limit, len(page))]
	}
	out := make([]PartitionStatus, len(page))
	for j, c := range page {
		l := info[runIDFor(id, c.key)]
		out[j] = PartitionStatus{Key: c.key, Interval: string(t.pspec.Interval), State: l.state, RunID: l.run, Error: l.err, Duration: l.dur}
	}
	return out, len(in), nil
}

// walkBox walks every cell of box (then, with rollups, the rollups of the
// backfill) and pages through those of q.State, their states from info.
func walkBox(id string, t *target, box partitions.Box, rollups bool, notStarted State, q PartitionQuery, info map[string]lastAttempt) ([]PartitionStatus, int, error) {
	var out []PartitionStatus
	n := 0
	add := func(key, interval, runID string) {
		ps := PartitionStatus{Key: key, Interval: interval, State: notStarted}
		if l, ok := info[runID]; ok {
			ps.State, ps.Error, ps.Duration, ps.RunID = l.state, l.err, l.dur, l.run
		}
		if q.State != "" && string(ps.State) != q.State {
			return
		}
		if n >= q.Offset && (q.Limit < 0 || n < q.Offset+q.Limit) {
			out = append(out, ps)
		}
		n++
	}
	it, err := t.pspec.IterBox(box)
	if err != nil {
		return nil, 0, err
	}
	if !rollups {
		for p := range it {
			add(p.Key, string(t.pspec.Interval), runIDFor(id, p.Key))
		}
		return out, n, nil
	}
	_, coarse := t.split()
	rt := newRollupTracker(t, &planData{coarse: coarse})
	for p := range it {
		add(p.Key, string(t.pspec.Interval), runIDFor(id, p.Key))
		rt.add(p, false)
	}
	for _, r := range rt.all() {
		add(r.part.Key, r.interval, runIDFor(id, r.interval+":"+r.part.Key))
	}
	return out, n, nil
}
