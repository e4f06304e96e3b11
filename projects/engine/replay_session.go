package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// replaySession is the replay of one group (one partition of one interval).
type replaySession struct {
	rp     *Replayer
	r      *runner
	g      *group
	stored map[string]*warehouse.StoredVersion // by product
	gone   map[string]error                    // by product: a recorded input of its stored version is gone
	runs   map[string]map[string]map[string]int
	mu     sync.Mutex
	reads  map[string]*sdk.Table // recorded upstream reads, by product and versions
	same   map[string]sameOutput // replayed outputs equal to their stored version, by product
}

// load reads the group's stored versions.
func (rs *replaySession) load(ctx context.Context) error {
	var products []string
	for _, b := range rs.g.blocks {
		products = append(products, ProductName(rs.r.pl, b))
	}
	stored, err := rs.rp.e.wh.CurrentStored(ctx, products, []string{rs.g.part.Key})
	if err != nil {
		return err
	}
	rs.stored = map[string]*warehouse.StoredVersion{}
	for i := range stored {
		rs.stored[stored[i].Product] = &stored[i]
	}
	rs.runs = map[string]map[string]map[string]int{}
	return rs.checkRecorded(ctx)
}

// run replays the group's blocks in pipeline order.
func (rs *replaySession) run(ctx context.Context) []BlockReplay {
	var out []BlockReplay
	for _, b := range rs.g.blocks {
		if b.FanOut != "" {
			continue // replayed with its dynamic parent
		}
		s := rs.stored[ProductName(rs.r.pl, b)]
		if b.Entry == project.EntryExport {
			out = append(out, BlockReplay{Block: b.ID, Product: ProductName(rs.r.pl, b), Status: ReplaySkipped, Error: "an export does not run in a replay (it writes nothing)"})
			continue
		}
		if s != nil {
			out = append(out, rs.block(ctx, b, s))
		}
		if b.Dynamic {
			out = append(out, rs.region(ctx, b)...)
		}
	}
	return out
}

// block replays one block on its stored version's recorded inputs.
func (rs *replaySession) block(ctx context.Context, b *project.Block, s *warehouse.StoredVersion) BlockReplay {
	start := time.Now()
	br := BlockReplay{Block: b.ID, Product: s.Product, Version: s.Version}
	err := rs.gone[s.Product]
	var in *upstreams
	if err == nil {
		in, err = rs.inputs(ctx, b, s, nil)
	}
	if err == nil {
		var out *sdk.Table
		var rerr *protocol.RunError
		out, rerr, br.Log, _, _ = rs.r.attempt(ctx, rs.g, b, nil, in)
		if rerr != nil {
			br.failRun(rerr)
		} else {
			err = rs.compare(ctx, &br, b, s, out)
		}
	}
	if err != nil {
		br.Status, br.Error = ReplayFailed, err.Error()
	}
	br.DurationMS = ms(time.Since(start))
	return br
}

// region replays the blocks that run once per row of dynamic block d: the
// rows of d's stored version (as its children's versions recorded it),
// one child each, every child through the region's blocks in order.
func (rs *replaySession) region(ctx context.Context, d *project.Block) []BlockReplay {
	start := time.Now()
	var region []*project.Block
	var stored []*warehouse.StoredVersion
	for _, b := range rs.g.blocks {
		if b.FanOut == d.ID {
			if s := rs.stored[ProductName(rs.r.pl, b)]; s != nil {
				region = append(region, b)
				stored = append(stored, s)
			}
		}
	}
	if len(region) == 0 {
		return nil
	}
	results := make([]BlockReplay, len(region))
	for j, b := range region {
		results[j] = BlockReplay{Block: b.ID, Product: stored[j].Product, Version: stored[j].Version}
	}
	failAll := func(err error) []BlockReplay {
		for j := range results {
			results[j].Status, results[j].Error, results[j].DurationMS = ReplayFailed, err.Error(), ms(time.Since(start))
		}
		return results
	}
	for _, s := range stored {
		if err := rs.gone[s.Product]; err != nil {
			return failAll(err)
		}
	}
	parent, err := rs.recorded(ctx, stored[0], d)
	if err != nil {
		return failAll(err)
	}
	items := parent.Len()
	outs := make([][]*sdk.Table, len(region))
	errs := make([][]*protocol.RunError, len(region))
	for j := range region {
		outs[j] = make([]*sdk.Table, items)
		errs[j] = make([]*protocol.RunError, items)
	}
	win := newWindow(rs.rp.e.FanOutWindow, 0)
	for i := 0; i < items; i++ {
		ok := win.Go(ctx, false, func() {
			item := itemOf(parent, i)
			mine := map[string]*sdk.Table{d.ID: rowTable(parent, i)}
			for j, b := range region {
				in, err := rs.inputs(ctx, b, stored[j], mine)
				if err != nil {
					errs[j][i] = &protocol.RunError{Kind: protocol.ErrRuntime, Message: err.Error()}
					return
				}
				out, rerr, _, _, _ := rs.r.attempt(ctx, rs.g, b, item, in)
				if rerr != nil {
					errs[j][i] = rerr
					return
				}
				mine[b.ID], outs[j][i] = out, out
			}
		}, nil)
		if !ok {
			break
		}
	}
	win.Wait()
	for j, b := range region {
		br := &results[j]
		br.Children = items
		var ok []*sdk.Table
		bad, first := 0, (*protocol.RunError)(nil)
		for i := 0; i < items; i++ {
			if outs[j][i] != nil {
				ok = append(ok, outs[j][i])
				continue
			}
			bad++
			if first == nil {
				first = errs[j][i]
			}
		}
		switch {
		case bad > 0 && first != nil:
			br.failRun(first)
			br.Error = fmt.Sprintf("%d of %d children failed; first: %s", bad, items, br.Error)
		case bad > 0:
			br.Status, br.Error = ReplayFailed, fmt.Sprintf("%d of %d children did not run (an earlier block of the child failed or the replay was cancelled)", bad, items)
		default:
			union, err := unionTables(ok)
			if err == nil {
				err = rs.compare(ctx, br, b, stored[j], union)
			}
			if err != nil {
				br.Status, br.Error = ReplayFailed, err.Error()
			}
		}
		br.DurationMS = ms(time.Since(start))
	}
	return results
}

// failRun records a block's run error.
func (br *BlockReplay) failRun(rerr *protocol.RunError) {
	br.Status, br.Error, br.ErrorFile, br.ErrorLine = ReplayFailed, rerr.Message, rerr.File, rerr.Line
}

// compare diffs a replayed output with its stored version.
func (rs *replaySession) compare(ctx context.Context, br *BlockReplay, b *project.Block, s *warehouse.StoredVersion, out *sdk.Table) error {
	if out == nil {
		out = sdk.NewTable()
	}
	// The common case, an unchanged partition, from the content hashes
	// alone (a publish computes the same hash in Go): no query at all.
	if h, err := warehouse.ContentHash(out); err == nil && s.Hash != "" && h == s.Hash && int64(out.Len()) == s.Rows {
		br.Status = ReplayUnchanged
		br.Diff = &warehouse.PartitionDiff{Product: s.Product, Partition: s.Partition, From: s.Version, RowsBefore: s.Rows, RowsAfter: s.Rows,
			Unchanged: true, Columns: []warehouse.ColumnChange{}, Keys: []string{}, RowColumns: []string{}, Rows: []warehouse.RowChange{}}
		rs.keep(b, s, out)
		return nil
	}
	d, err := rs.rp.e.wh.DiffTable(ctx, s.Product, s.Partition, s.Version, out, warehouse.DiffOptions{Keys: b.Key, Rows: rs.rp.opt.Rows})
	if err != nil {
		return err
	}
	br.Diff = d
	br.Status = ReplayUnchanged
	if !d.Unchanged {
		br.Status = ReplayChanged
	} else {
		rs.keep(b, s, out)
	}
	return nil
}

// keep remembers a block's replayed output that equals its stored version
// s: a block below that recorded reading s gets this table, as the
// original run handed it the output in memory, instead of reading s back.
func (rs *replaySession) keep(b *project.Block, s *warehouse.StoredVersion, out *sdk.Table) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.same == nil {
		rs.same = map[string]sameOutput{}
	}
	rs.same[s.Product] = sameOutput{partition: s.Partition, version: s.Version, table: out}
}

// sameOutput is a replayed output equal to a stored version.
type sameOutput struct {
	partition string
	version   int
	table     *sdk.Table
}

// inputs are block b's upstreams as its stored version s recorded them;
// local holds the tables of this child (a fan-out block's).
func (rs *replaySession) inputs(ctx context.Context, b *project.Block, s *warehouse.StoredVersion, local map[string]*sdk.Table) (*upstreams, error) {
	in := &upstreams{names: b.Upstream}
	for _, u := range b.Upstream {
		if t := local[u]; t != nil {
			in.tables = append(in.tables, t)
			in.pinned = append(in.pinned, nil)
			continue
		}
		ub := rs.r.pl.Block(u)
		if ub == nil {
			return nil, fmt.Errorf("upstream %s is not a block of pipeline %s", u, rs.r.pl.ID)
		}
		if b.Kind == project.KindSQL {
			refs, err := rs.refs(ctx, s, ub)
			if err != nil {
				return nil, err
			}
			in.tables = append(in.tables, nil)
			in.pinned = append(in.pinned, refs)
			continue
		}
		t, err := rs.recorded(ctx, s, ub)
		if err != nil {
			return nil, err
		}
		in.tables = append(in.tables, t)
		in.pinned = append(in.pinned, nil)
	}
	return in, nil
}

// recorded reads the versions of ub's product that s recorded, once per
// session.
func (rs *replaySession) recorded(ctx context.Context, s *warehouse.StoredVersion, ub *project.Block) (*sdk.Table, error) {
	refs, err := rs.refs(ctx, s, ub)
	if err != nil {
		return nil, err
	}
	if len(refs) == 1 {
		rs.mu.Lock()
		same, ok := rs.same[refs[0].Product]
		rs.mu.Unlock()
		if ok && same.partition == refs[0].Partition && same.version == refs[0].Version {
			return same.table, nil
		}
	}
	key := fmt.Sprint(refs)
	rs.mu.Lock()
	t := rs.reads[key]
	rs.mu.Unlock()
	if t != nil {
		return t, nil
	}
	t, read, err := rs.rp.e.wh.ReadVersions(ctx, refs)
	if t, err = blockInput(t, err); err != nil {
		return nil, err
	}
	for i := range refs {
		// ReadVersions gives way to the current version of a partition
		// whose chosen one is gone; a replay must not.
		if i >= len(read) || read[i] != refs[i] {
			return nil, goneError(s, refs[i])
		}
	}
	rs.mu.Lock()
	rs.reads[key] = t
	rs.mu.Unlock()
	return t, nil
}

// refs are the versions of ub's product that s recorded, by partition
// start; a 0 (written by the same run) is the version that run wrote.
func (rs *replaySession) refs(ctx context.Context, s *warehouse.StoredVersion, ub *project.Block) ([]warehouse.VersionRef, error) {
	product := ProductName(rs.r.pl, ub)
	read := s.Upstream[product]
	if len(read) == 0 {
		return nil, fmt.Errorf("%s version %d recorded no read of upstream %s (%s): written before its lineage was recorded, or by an older pipeline; a backfill rewrites it", s.Product, s.Version, ub.ID, product)
	}
	us, err := SpecOf(ub.Partitions)
	if err != nil {
		return nil, err
	}
	type ref struct {
		warehouse.VersionRef
		start time.Time
	}
	var refs []ref
	for k, v := range read {
		if v == 0 {
			if v, err = rs.byRun(ctx, s.RunID, product, k); err != nil {
				return nil, err
			}
		}
		r := ref{VersionRef: warehouse.VersionRef{Product: product, Partition: k, Version: v}}
		if p, err := us.Parse(k); err == nil {
			r.start = p.Start
		}
		refs = append(refs, r)
	}
	sort.Slice(refs, func(i, j int) bool {
		if !refs[i].start.Equal(refs[j].start) {
			return refs[i].start.Before(refs[j].start)
		}
		return refs[i].Partition < refs[j].Partition
	})
	out := make([]warehouse.VersionRef, len(refs))
	for i, r := range refs {
		out[i] = r.VersionRef
	}
	return out, nil
}

// byRun is the version of product's partition that run wrote.
func (rs *replaySession) byRun(ctx context.Context, runID, product, key string) (int, error) {
	rs.mu.Lock()
	got, ok := rs.runs[runID]
	rs.mu.Unlock()
	if !ok {
		var err error
		if got, err = rs.rp.e.wh.RunVersions(ctx, runID); err != nil {
			return 0, err
		}
		rs.mu.Lock()
		rs.runs[runID] = got
		rs.mu.Unlock()
	}
	if v, ok := got[product][key]; ok {
		return v, nil
	}
	return 0, fmt.Errorf("the version of %s partition %s that run %s wrote (and read from the same run) is no longer kept: retention or a discard removed it", product, key, runID)
}

// ReplayName is "block" or "block[child]"-free text naming a block replay
// in reports: the product, and the block when it differs.
func ReplayName(b BlockReplay) string {
	if b.Block == "" || strings.EqualFold(b.Block, b.Product) {
		return b.Product
	}
	return b.Block + " (" + b.Product + ")"
}
