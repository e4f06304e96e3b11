package engine

import (
	"context"
	"fmt"
	"maps"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// upstreams are a block's inputs in parameter order: tables in memory, or,
// for a SQL block, the published versions it reads in place (tables[i] is
// nil where pinned[i] is set). A SQL block's query reads the warehouse's
// rows where they are; copying them into Go and back into a temporary
// table was most of what a weekly rollup over seven days cost.
//
// files[i] is set where an upstream of this group wrote its output into the
// warehouse's data folder on a worker and did not send it back: the
// executor reads that file (tables[i] is nil), so the rows go from worker
// to worker without passing through the coordinator (output_sink.go).
type upstreams struct {
	names  []string
	tables []*sdk.Table
	pinned [][]warehouse.VersionRef
	files  []*warehouse.WrittenFile
}

// inputs gathers a block's upstreams: from this run when the upstream ran
// here, else from the warehouse (the upstream's current partitions that
// cover this block's partition). The versions are chosen here, for a SQL
// block too, so a missing upstream fails the block before any attempt.
func (r *runner) inputs(ctx context.Context, g *group, b *project.Block, local func(string) *sdk.Table) (*upstreams, error) {
	in := &upstreams{names: b.Upstream, files: make([]*warehouse.WrittenFile, len(b.Upstream))}
	for i, u := range b.Upstream {
		if t := local(u); t != nil {
			in.tables = append(in.tables, t)
			in.pinned = append(in.pinned, nil)
			continue
		}
		if f := r.groupFile(g, u); f != nil {
			// Its output is this file, not the warehouse's current version.
			var t *sdk.Table
			if !r.takesFiles(b) {
				var err error
				if t, err = readWritten(ctx, r.e.wh, f); err != nil {
					return nil, err
				}
			} else {
				in.files[i] = f
			}
			in.tables = append(in.tables, t)
			in.pinned = append(in.pinned, nil)
			continue
		}
		pin, err := r.pinUpstream(ctx, g, r.pl.Block(u))
		if err != nil {
			return nil, err
		}
		if b.Kind == project.KindSQL && !pin.staged {
			in.tables = append(in.tables, nil)
			in.pinned = append(in.pinned, pin.refs())
			continue
		}
		t, err := r.readPinned(ctx, pin)
		if err != nil {
			return nil, err
		}
		in.tables = append(in.tables, t)
		in.pinned = append(in.pinned, nil)
	}
	return in, nil
}

// runSQL runs a SQL block over its upstreams and records the versions it
// read in place as what it read (the warehouse says which, in the query's
// own snapshot). A product the query reads by its view's name, undeclared,
// is recorded as a ctx.Product read is: part of the version's lineage, so a
// rewrite of it makes the version stale. The block's own product is left
// out (a query that reads what its block wrote before is not made stale by
// its own publish).
func (r *runner) runSQL(ctx context.Context, g *group, b *project.Block, src string, in *upstreams) (*sdk.Table, error) {
	if b.Batch > 0 {
		return r.runSQLBatch(ctx, g, b, src, in)
	}
	ins := make([]warehouse.SQLInput, len(in.names))
	for i, n := range in.names {
		ins[i] = warehouse.SQLInput{Name: n, Table: in.tables[i], Read: in.pinned[i]}
	}
	mapped, err := r.mappedSQLInputs(ctx, g, b, src, []string{g.part.Key})
	if err != nil {
		return nil, err
	}
	ins = append(ins, mapped.ins...)
	t, read, byName, err := r.e.wh.RunSQLBlockIn(ctx, r.opt.PreferPinned, src, ins, sqlParams(g.spec, g.part))
	if err != nil {
		return nil, err
	}
	if err := r.checkReplayed(ins, read); err != nil {
		return nil, err
	}
	for _, refs := range read[:min(len(read), len(in.names))] {
		r.recordRead(refs)
	}
	if len(read) > len(in.names) {
		// another pipeline's cells mapped onto this partition: read as
		// ctx.Product reads them
		r.recordMapped(b.ID, g.part.Key, mapped, read[len(in.names):])
	}
	own := ProductName(r.pl, b)
	for _, refs := range byName {
		if len(refs) > 0 && !strings.EqualFold(refs[0].Product, own) {
			r.recordProductRead(b.ID, g.part.Key, refs)
		}
	}
	return t, nil
}

// recordRead records versions of one product as what the run read of it
// (its lineage).
func (r *runner) recordRead(refs []warehouse.VersionRef) {
	if len(refs) == 0 {
		return
	}
	have := make(map[string]int, len(refs))
	for _, ref := range refs {
		have[ref.Partition] = ref.Version
	}
	r.mu.Lock()
	r.readVersions[refs[0].Product] = have
	r.mu.Unlock()
}

// upstreamPin is which versions of an upstream's product a block reads.
type upstreamPin struct {
	product string
	want    []string       // the partitions that cover the block's, in order
	have    map[string]int // partition -> version, of those that exist
	staged  bool           // have includes versions of the run PreferRun names
}

// refs are the pinned versions in read order.
func (p *upstreamPin) refs() []warehouse.VersionRef {
	var out []warehouse.VersionRef
	for _, k := range p.want {
		if v, ok := p.have[k]; ok {
			out = append(out, warehouse.VersionRef{Product: p.product, Partition: k, Version: v})
		}
	}
	return out
}

// pinUpstream chooses the versions of ub's product that cover g's
// partition, and records them as read.
func (r *runner) pinUpstream(ctx context.Context, g *group, ub *project.Block) (*upstreamPin, error) {
	us, err := SpecOf(ub.Partitions)
	if err != nil {
		return nil, err
	}
	var want []string
	if us.Interval == g.spec.Interval {
		want = []string{g.part.Key}
	} else {
		for _, p := range g.spec.Covering(g.part, us) {
			want = append(want, p.Key)
		}
	}
	pin := &upstreamPin{product: ProductName(r.pl, ub), want: want}
	if pin.have, err = r.e.currentVersions(ctx, pin.product, want); err != nil {
		return nil, err
	}
	if r.opt.PreferPinned != "" {
		pinned, err := r.e.versionsPinned(ctx, pin.product, want, r.opt.PreferPinned)
		if err != nil {
			return nil, err
		}
		maps.Copy(pin.have, pinned)
	}
	if r.opt.PreferRun != "" {
		staged, err := r.e.versionsByRun(ctx, pin.product, want, r.opt.PreferRun)
		if err != nil {
			return nil, err
		}
		if len(staged) > 0 {
			for k, v := range staged {
				pin.have[k] = v
			}
			pin.staged = true
			return pin, nil
		}
	}
	if len(pin.have) == 0 {
		return nil, fmt.Errorf("upstream %s has no data for %s %s (it needs partitions %s..%s of %s)", ub.ID, g.spec.Interval, g.part.Key, want[0], want[len(want)-1], pin.product)
	}
	r.mu.Lock()
	r.readVersions[pin.product] = pin.have
	r.mu.Unlock()
	return pin, nil
}

// readUpstream reads the versions pinUpstream chooses into a table.
func (r *runner) readUpstream(ctx context.Context, g *group, ub *project.Block) (*sdk.Table, error) {
	pin, err := r.pinUpstream(ctx, g, ub)
	if err != nil {
		return nil, err
	}
	return r.readPinned(ctx, pin)
}

// readPinned reads pinned versions into a table, and records the versions
// it read as what the block read: the pinned ones, in one snapshot (reading
// "the current ones" instead let a publish between the choice and the read
// make the lineage name a version other than the rows the block got).
func (r *runner) readPinned(ctx context.Context, pin *upstreamPin) (*sdk.Table, error) {
	if pin.staged {
		return blockInput(r.readVersionsOf(ctx, pin.product, pin.want, pin.have))
	}
	t, read, err := r.e.wh.ReadVersions(ctx, pin.refs())
	if err != nil {
		return nil, err
	}
	r.recordRead(read)
	return blockInput(t, nil)
}
