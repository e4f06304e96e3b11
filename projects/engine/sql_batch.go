package engine

import (
	"context"
	"fmt"
	"slices"
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
//
// batch: {max: N, across: [customer]} widens a window to the backfill's
// selected values of those dimensions: one query computes every customer
// of the window's days (a query costs ~0.2 ms of CPU whatever it returns,
// as much as the rest of a small cell's run). The cells of the window are
// still each their own run, version and compare-and-set publish; a row of
// a cell the backfill does not run (a customer its --where left out, or
// another customer in a plain run) is not published, while a row whose
// partition_key is no cell of the window's days and fixed values fails the
// window as before. The across dimensions' $dim_ parameters and
// $partition_key are not set for such a query: it computes many cells.

// batchColumn names the partition of each row a batch block returns.
const batchColumn = "partition_key"

// sqlBatches holds a backfill's computed windows, by block and window.
type sqlBatches struct {
	from, to string // the backfill's time range (time keys)
	// sel are the backfill's selected values of each value dimension;
	// nil when it has none.
	sel     map[string][]string
	mu      sync.Mutex
	windows map[string]*batchWindow
	chunks  map[string][]partitions.Partition // time key and max -> its window's time partitions
}

func newSQLBatches(from, to string, spec partitions.Spec, box partitions.Box) *sqlBatches {
	bs := &sqlBatches{from: from, to: to, windows: map[string]*batchWindow{}, chunks: map[string][]partitions.Partition{}}
	if len(spec.Dims) > 0 {
		// The box was checked when the backfill was made; a dimension whose
		// key set cannot be resolved leaves the windows to their own cells.
		if sel, err := spec.Selection(box); err == nil {
			bs.sel = map[string][]string{}
			for i, d := range spec.Dims {
				bs.sel[d.Name] = sel[i]
			}
		}
	}
	return bs
}

// batchWindow is one window's query result, computed once.
type batchWindow struct {
	once   sync.Once
	keys   map[string]bool // the window's partition keys
	t      *sdk.Table
	rows   map[string][]int // the rows of t of each partition of keys
	read   [][]warehouse.VersionRef
	byName [][]warehouse.VersionRef
	mapped *mappedInputs // other pipelines' cells mapped onto the window's cells (sql_mapped.go)
	err    error
	taken  int // partitions that took their rows: at len(keys) it is dropped
}

// batchWindowOf is the partitions of part's batch window, in time order:
// the chunk of max consecutive partitions of [from, to] holding it (part
// alone when from is empty: a plain run). bs, when set, keeps each chunk
// of time partitions once found: finding one walks the range from its
// start, which every cell of a 100-day × 1,000-customer backfill would
// otherwise do again.
func batchWindowOf(bs *sqlBatches, spec partitions.Spec, part partitions.Partition, from, to string, max int) ([]partitions.Partition, error) {
	if from == "" {
		return []partitions.Partition{part}, nil
	}
	tk := spec.TimeKey(part)
	times, err := bs.chunk(spec.TimeOnly(), tk, from, to, max)
	if err != nil {
		return nil, err
	}
	out := make([]partitions.Partition, len(times))
	for i, p := range times {
		out[i] = partitions.Partition{Key: cellWithTime(part.Key, tk, p.Key, spec.TimePos, len(spec.Dims) > 0), Start: p.Start, End: p.End, Values: part.Values}
	}
	return out, nil
}

// chunk is the time partitions of the window holding time key tk.
func (bs *sqlBatches) chunk(cal partitions.Spec, tk, from, to string, max int) ([]partitions.Partition, error) {
	id := fmt.Sprint(tk, "\x00", max)
	if bs != nil {
		bs.mu.Lock()
		c, ok := bs.chunks[id]
		bs.mu.Unlock()
		if ok {
			return c, nil
		}
	}
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
		out = append(out, p)
	}
	if bs != nil {
		bs.mu.Lock()
		for _, p := range out {
			bs.chunks[fmt.Sprint(p.Key, "\x00", max)] = out
		}
		bs.mu.Unlock()
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

// batchCells are the cells of a window: its time partitions (of part's
// values), crossed, for each dimension the block batches across, with the
// backfill's selected values of it (sel; part's own value in a plain run).
func batchCells(spec partitions.Spec, times []partitions.Partition, part partitions.Partition, across []string, sel map[string][]string) []partitions.Partition {
	if len(across) == 0 || len(part.Values) != len(spec.Dims) {
		return times
	}
	lists := make([][]string, len(spec.Dims))
	for i, d := range spec.Dims {
		lists[i] = []string{part.Values[i]}
		if vs, ok := sel[d.Name]; ok && slices.Contains(across, d.Name) {
			lists[i] = vs
		}
	}
	var out []partitions.Partition
	for _, tp := range times {
		tk := spec.TimeKey(tp)
		for values := range crossValues(lists) {
			out = append(out, partitions.Partition{Key: cellKey(spec, tk, values), Start: tp.Start, End: tp.End, Values: values})
		}
	}
	return out
}

// crossValues yields every combination of one value of each list, the
// last list varying fastest (each a new slice).
func crossValues(lists [][]string) func(yield func([]string) bool) {
	return func(yield func([]string) bool) {
		idx := make([]int, len(lists))
		for {
			vs := make([]string, len(lists))
			for i, l := range lists {
				vs[i] = l[idx[i]]
			}
			if !yield(vs) {
				return
			}
			i := len(lists) - 1
			for ; i >= 0; i-- {
				if idx[i]++; idx[i] < len(lists[i]) {
					break
				}
				idx[i] = 0
			}
			if i < 0 {
				return
			}
		}
	}
}

// cellKey is the key of the cell of time key tk and values (a batch block
// always has a time dimension).
func cellKey(spec partitions.Spec, tk string, values []string) string {
	parts := slices.Insert(slices.Clone(values), min(spec.TimePos, len(values)), tk)
	return strings.Join(parts, partitions.KeySep)
}

// windowID names a window among a backfill's: the block, its time range
// and its cell's values, those it batches across left out.
func windowID(spec partitions.Spec, b *project.Block, times []partitions.Partition, part partitions.Partition) string {
	var id strings.Builder
	id.WriteString(b.ID + "\x00" + spec.TimeKey(times[0]) + "\x00" + spec.TimeKey(times[len(times)-1]))
	for i, d := range spec.Dims {
		id.WriteString("\x00")
		if i < len(part.Values) && !slices.Contains(b.BatchAcross, d.Name) {
			id.WriteString(part.Values[i])
		}
	}
	return id.String()
}

// runSQLBatch is runSQL for a batch block: the window's query (run once)
// and this partition's rows of it.
func (r *runner) runSQLBatch(ctx context.Context, g *group, b *project.Block, src string, in *upstreams) (*sdk.Table, error) {
	var from, to string
	var sel map[string][]string
	if r.opt.batches != nil {
		from, to, sel = r.opt.batches.from, r.opt.batches.to, r.opt.batches.sel
	}
	times, err := batchWindowOf(r.opt.batches, g.spec, g.part, from, to, b.Batch)
	if err != nil {
		return nil, fmt.Errorf("batch window of %s: %w", g.part.Key, err)
	}
	id := windowID(g.spec, b, times, g.part)
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
	w.once.Do(func() { w.compute(ctx, r, g, b, times, batchCells(g.spec, times, g.part, b.BatchAcross, sel), src, in) })
	if w.err != nil {
		return nil, w.err
	}
	for _, refs := range w.read[:min(len(w.read), len(in.names))] {
		r.recordRead(refs)
	}
	if w.mapped != nil && len(w.read) > len(in.names) {
		// Of the cells mapped onto the window, this cell's own.
		r.recordMapped(b.ID, g.part.Key, w.mapped, w.read[len(in.names):])
	}
	own := ProductName(r.pl, b)
	for _, refs := range w.byName {
		if len(refs) > 0 && !strings.EqualFold(refs[0].Product, own) {
			r.recordProductRead(b.ID, g.part.Key, refs)
		}
	}
	out := w.rowsOf(g.part.Key)
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
// partitions (or, batching across dimensions, a cell of its days and
// fixed values, which the backfill does not run: not taken).
func (w *batchWindow) compute(ctx context.Context, r *runner, g *group, b *project.Block, times, cells []partitions.Partition, src string, in *upstreams) {
	w.keys = make(map[string]bool, len(cells))
	for _, p := range cells {
		w.keys[p.Key] = true
	}
	ins := make([]warehouse.SQLInput, len(in.names))
	for i, n := range in.names {
		ins[i] = warehouse.SQLInput{Name: n, Table: in.tables[i], Read: in.pinned[i]}
	}
	params := sqlParams(g.spec, g.part)
	params["batch_start"], params["batch_end"] = times[0].Start, times[len(times)-1].End
	if len(b.BatchAcross) > 0 {
		delete(params, "partition_key")
		for _, d := range b.BatchAcross {
			delete(params, "dim_"+d)
		}
	}
	window := times[0].Key + " .. " + times[len(times)-1].Key
	if len(b.BatchAcross) > 0 {
		window = fmt.Sprintf("%s .. %s across %s", g.spec.TimeKey(times[0]), g.spec.TimeKey(times[len(times)-1]), strings.Join(b.BatchAcross, ", "))
	}
	// Other pipelines' cells mapped onto any cell of the window: one
	// query reads them all, each cell records its own (runSQLBatch).
	keys := make([]string, len(cells))
	for i, p := range cells {
		keys[i] = p.Key
	}
	mapped, err := r.mappedSQLInputs(ctx, g, b, src, keys)
	if err != nil {
		w.err = fmt.Errorf("batch %s (%d partitions): %w", window, len(cells), err)
		return
	}
	ins = append(ins, mapped.ins...)
	t, read, byName, err := r.e.wh.RunSQLBlockIn(ctx, r.opt.PreferPinned, src, ins, params)
	if err == nil {
		err = r.checkReplayed(ins, read)
	}
	if err != nil {
		w.err = fmt.Errorf("batch %s (%d partitions): %w", window, len(cells), err)
		return
	}
	col := t.Column(batchColumn)
	if col == nil {
		w.err = fmt.Errorf("batch %s: the query returns no %s column: a batch block names each row's partition in it (e.g. strftime(day, '%%Y-%%m-%%d') AS %s)", window, batchColumn, batchColumn)
		return
	}
	i := columnIndex(t, batchColumn)
	w.rows = make(map[string][]int, len(cells))
	for row := range t.Len() {
		k := fmt.Sprint(t.Row(row)[i])
		if w.keys[k] {
			w.rows[k] = append(w.rows[k], row)
			continue
		}
		if len(b.BatchAcross) == 0 || !inScope(g.spec, k, times, g.part, b.BatchAcross) {
			w.err = fmt.Errorf("batch %s: row %d has %s %q, not a partition of the window: nothing of the batch is published", window, row+1, batchColumn, k)
			return
		}
	}
	w.t, w.read, w.byName, w.mapped = t, read, byName, mapped
}

// inScope says whether key is a cell of the window's days whose values
// are part's but for the dimensions batched across: computed by the
// window's query, though not run by this backfill.
func inScope(spec partitions.Spec, key string, times []partitions.Partition, part partitions.Partition, across []string) bool {
	p, err := spec.Parse(key)
	if err != nil || len(p.Values) != len(spec.Dims) || len(part.Values) != len(spec.Dims) {
		return false
	}
	tk := spec.TimeKey(p)
	if !slices.ContainsFunc(times, func(t partitions.Partition) bool { return spec.TimeKey(t) == tk }) {
		return false
	}
	for i, d := range spec.Dims {
		if !slices.Contains(across, d.Name) && p.Values[i] != part.Values[i] {
			return false
		}
	}
	return true
}

func columnIndex(t *sdk.Table, name string) int {
	for i, f := range t.Schema() {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// rowsOf is the rows of the window's result whose partition column is key.
func (w *batchWindow) rowsOf(key string) *sdk.Table {
	out := sdk.NewTable(w.t.Schema()...)
	for _, row := range w.rows[key] {
		out.Append(w.t.Row(row)...)
	}
	return out
}
