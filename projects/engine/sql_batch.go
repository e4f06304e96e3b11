package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// A SQL block with batch: {max: N} computes a window of up to N consecutive
// partitions (of one cell: the same dimension values) in one query, with
// $batch_start and $batch_end bounding the window, and returns a
// partition_key column naming each row's partition. Each partition's run
// still publishes its own rows as its own version; the window's query runs
// once, for the first of its partitions to need it, and the others take
// their rows from it. A query that fails, or returns a row of no partition
// of its window, fails every partition of the window: none of it is
// published (TestSQLBatch).
//
// A backfill's windows are consecutive chunks of N of its time range,
// counted from its first partition; a plain run's window is its partition.

// batchColumn names the partition of each row a batch block returns.
const batchColumn = "partition_key"

// sqlBatches holds a backfill's computed windows, by block and window.
type sqlBatches struct {
	from, to string // the backfill's time range (time keys)
	mu       sync.Mutex
	windows  map[string]*batchWindow
}

func newSQLBatches(from, to string) *sqlBatches {
	return &sqlBatches{from: from, to: to, windows: map[string]*batchWindow{}}
}

// batchWindow is one window's query result, computed once.
type batchWindow struct {
	once   sync.Once
	keys   map[string]bool // the window's partition keys
	t      *sdk.Table
	read   [][]warehouse.VersionRef
	byName [][]warehouse.VersionRef
	err    error
	taken  int // partitions that took their rows: at len(keys) it is dropped
}

// window is the partitions of part's batch window, in time order: the
// chunk of max consecutive partitions of [from, to] holding it (part
// alone when from is empty: a plain run).
func batchWindowOf(spec partitions.Spec, part partitions.Partition, from, to string, max int) ([]partitions.Partition, error) {
	if from == "" {
		return []partitions.Partition{part}, nil
	}
	cal := spec.TimeOnly()
	tk := spec.TimeKey(part)
	n, err := cal.Count(from, tk)
	if err != nil {
		return nil, err
	}
	first, err := cal.Parse(from)
	if err != nil {
		return nil, err
	}
	for range ((n - 1) / max) * max {
		first = cal.Next(first)
	}
	last, err := cal.Parse(to)
	if err != nil {
		return nil, err
	}
	var out []partitions.Partition
	for p := first; len(out) < max && !p.Start.After(last.Start); p = cal.Next(p) {
		out = append(out, partitions.Partition{Key: cellWithTime(part.Key, tk, p.Key, spec.TimePos, len(spec.Dims) > 0), Start: p.Start, End: p.End, Values: part.Values})
	}
	return out, nil
}

// cellWithTime is cell key with its time part (old) replaced by tk.
func cellWithTime(key, old, tk string, pos int, dims bool) string {
	if !dims {
		return tk
	}
	parts := strings.Split(key, partitions.KeySep)
	if pos < len(parts) && parts[pos] == old {
		parts[pos] = tk
	}
	return strings.Join(parts, partitions.KeySep)
}

// runSQLBatch is runSQL for a batch block: the window's query (run once)
// and this partition's rows of it.
func (r *runner) runSQLBatch(ctx context.Context, g *group, b *project.Block, src string, in *upstreams) (*sdk.Table, error) {
	var from, to string
	if r.opt.batches != nil {
		from, to = r.opt.batches.from, r.opt.batches.to
	}
	parts, err := batchWindowOf(g.spec, g.part, from, to, b.Batch)
	if err != nil {
		return nil, fmt.Errorf("batch window of %s: %w", g.part.Key, err)
	}
	id := b.ID + "\x00" + parts[0].Key + "\x00" + parts[len(parts)-1].Key
	var w *batchWindow
	if r.opt.batches != nil {
		bs := r.opt.batches
		bs.mu.Lock()
		if w = bs.windows[id]; w == nil {
			w = &batchWindow{}
			bs.windows[id] = w
		}
		bs.mu.Unlock()
	} else {
		w = &batchWindow{}
	}
	w.once.Do(func() { w.compute(ctx, r, g, parts, src, in) })
	if w.err != nil {
		return nil, w.err
	}
	for _, refs := range w.read {
		r.recordRead(refs)
	}
	own := ProductName(r.pl, b)
	for _, refs := range w.byName {
		if len(refs) > 0 && !strings.EqualFold(refs[0].Product, own) {
			r.recordProductRead(b.ID, g.part.Key, refs)
		}
	}
	out := rowsOf(w.t, g.part.Key)
	if r.opt.batches != nil {
		bs := r.opt.batches
		bs.mu.Lock()
		if w.taken++; w.taken >= len(w.keys) {
			delete(bs.windows, id)
		}
		bs.mu.Unlock()
	}
	return out, nil
}

// compute runs the window's query and checks every row names one of its
// partitions.
func (w *batchWindow) compute(ctx context.Context, r *runner, g *group, parts []partitions.Partition, src string, in *upstreams) {
	w.keys = make(map[string]bool, len(parts))
	for _, p := range parts {
		w.keys[p.Key] = true
	}
	ins := make([]warehouse.SQLInput, len(in.names))
	for i, n := range in.names {
		ins[i] = warehouse.SQLInput{Name: n, Table: in.tables[i], Read: in.pinned[i]}
	}
	params := sqlParams(g.spec, g.part)
	params["batch_start"], params["batch_end"] = parts[0].Start, parts[len(parts)-1].End
	window := parts[0].Key + " .. " + parts[len(parts)-1].Key
	t, read, byName, err := r.e.wh.RunSQLBlockIn(ctx, r.opt.PreferPinned, src, ins, params)
	if err != nil {
		w.err = fmt.Errorf("batch %s (%d partitions): %w", window, len(parts), err)
		return
	}
	col := t.Column(batchColumn)
	if col == nil {
		w.err = fmt.Errorf("batch %s: the query returns no %s column: a batch block names each row's partition in it (e.g. strftime(day, '%%Y-%%m-%%d') AS %s)", window, batchColumn, batchColumn)
		return
	}
	i := columnIndex(t, batchColumn)
	for row := range t.Len() {
		k := fmt.Sprint(t.Row(row)[i])
		if !w.keys[k] {
			w.err = fmt.Errorf("batch %s: row %d has %s %q, not a partition of the window: nothing of the batch is published", window, row+1, batchColumn, k)
			return
		}
	}
	w.t, w.read, w.byName = t, read, byName
}

func columnIndex(t *sdk.Table, name string) int {
	for i, f := range t.Schema() {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// rowsOf is the rows of t whose partition column is key.
func rowsOf(t *sdk.Table, key string) *sdk.Table {
	out := sdk.NewTable(t.Schema()...)
	i := columnIndex(t, batchColumn)
	for row := range t.Len() {
		vals := t.Row(row)
		if fmt.Sprint(vals[i]) == key {
			out.Append(vals...)
		}
	}
	return out
}
