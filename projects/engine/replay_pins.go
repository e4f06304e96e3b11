package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// What a replayed block reads besides its upstreams is pinned to what its
// stored version's run saw, as the upstreams are: a ctx.Product window
// reads the versions that run read (recorded in the version's lineage with
// its upstream reads), and ctx.State starts from the state that run
// started from (recorded with the version's state). Without the pins a
// republished upstream or a cursor moved on since would make unchanged
// code report "changed": a false alarm under --expect-unchanged.

// start is the state the stored version of product started from; false
// when the version predates that record (the replay then starts from the
// product's current state, as a run does).
func (rs *replaySession) start(product string) (map[string]string, bool) {
	s := rs.stored[product]
	if s == nil || !s.StartKnown {
		return nil, false
	}
	return s.StartState, true
}

// productRead answers block b's ctx.Product call with the versions the
// stored run read: of the partitions the window covers, those it read,
// each at the version it read.
func (rs *replaySession) productRead(ctx context.Context, b *project.Block, c *protocol.HostCall) (*sdk.Table, error) {
	s := rs.stored[ProductName(rs.r.pl, b)]
	if s == nil {
		return nil, fmt.Errorf("replay: block %s has no stored version in partition %s", b.ID, rs.g.part.Key)
	}
	rec := maps.Clone(s.Upstream[c.Product])
	var sel warehouse.Selection
	var err error
	if _, mapped, merr := rs.rp.e.mappedRead(ctx, rs.g.spec, c.Product, c.Window); mapped || merr != nil {
		// A key of the reader's space (cell_read.go): the recorded cells
		// covering it, whatever today's key sets map onto it.
		keys, err := recordedCovering(rs.g.spec, c.Window.Partition, rs.rp.e, c.Product, rec)
		if err != nil {
			return nil, err
		}
		if len(keys) == 0 {
			return nil, fmt.Errorf("replay: %s version %d recorded no read of %s covering %s", s.Product, s.Version, c.Product, c.Window.Partition)
		}
		sel = warehouse.Selection{Partitions: keys}
	} else if sel, err = rs.rp.e.ResolveWindow(c.Product, c.Window); err != nil {
		return nil, err
	}
	for k, v := range rec {
		if v == 0 {
			if rec[k], err = rs.byRun(ctx, s.RunID, c.Product, k); err != nil {
				return nil, err
			}
		}
	}
	return rs.rp.e.wh.ReadRecorded(ctx, c.Product, sel, rec)
}

// checkRecorded finds, for each stored version of the group, whether an
// input it recorded (an upstream or a ctx.Product read) is gone, in one
// look-up: such a version cannot be replayed on what its run saw, and its
// block fails with the version named instead of reading another.
func (rs *replaySession) checkRecorded(ctx context.Context) error {
	var refs []warehouse.VersionRef
	owner := map[warehouse.VersionRef][]*warehouse.StoredVersion{}
	for _, s := range rs.stored {
		for product, parts := range s.Upstream {
			for k, v := range parts {
				if v == 0 {
					continue // the same run's: byRun says when it is gone
				}
				r := warehouse.VersionRef{Product: product, Partition: k, Version: v}
				if owner[r] == nil {
					refs = append(refs, r)
				}
				owner[r] = append(owner[r], s)
			}
		}
	}
	sort.Slice(refs, func(i, j int) bool { return refs[i].String() < refs[j].String() })
	gone, err := rs.rp.e.wh.GoneVersions(ctx, refs)
	if err != nil {
		return err
	}
	rs.gone = map[string]error{}
	for _, r := range gone {
		for _, s := range owner[r] {
			if rs.gone[s.Product] == nil {
				rs.gone[s.Product] = goneError(s, r)
			}
		}
	}
	return nil
}

// goneError says that version s cannot be replayed on what its run read.
func goneError(s *warehouse.StoredVersion, r warehouse.VersionRef) error {
	return fmt.Errorf("%s version %d read %s, which is gone (retention or a discard removed it since): it cannot be replayed on what its run saw; a backfill rewrites it",
		s.Product, s.Version, r)
}

// recordedReads are the versions of product (which block b's query names)
// that b's stored version recorded reading; the query reads those, as a
// ctx.Product call does. They are in the order of keys (the cells mapped
// onto the partition now: the order a run reads them in), any other
// recorded partition after them by key.
func (rs *replaySession) recordedReads(ctx context.Context, b *project.Block, product string, keys []string) ([]warehouse.VersionRef, error) {
	s := rs.stored[ProductName(rs.r.pl, b)]
	if s == nil {
		return nil, fmt.Errorf("replay: block %s has no stored version in partition %s", b.ID, rs.g.part.Key)
	}
	rec := s.Upstream[product]
	if len(rec) == 0 {
		return nil, &notRecordedError{s: s, product: product}
	}
	order := make([]string, 0, len(rec))
	for _, k := range keys {
		if _, ok := rec[k]; ok {
			order = append(order, k)
		}
	}
	if len(order) < len(rec) {
		for _, k := range slices.Sorted(maps.Keys(rec)) {
			if !slices.Contains(keys, k) {
				order = append(order, k)
			}
		}
	}
	refs := make([]warehouse.VersionRef, 0, len(order))
	for _, k := range order {
		v := rec[k]
		if v == 0 {
			var err error
			if v, err = rs.byRun(ctx, s.RunID, product, k); err != nil {
				return nil, err
			}
		}
		refs = append(refs, warehouse.VersionRef{Product: product, Partition: k, Version: v})
	}
	return refs, nil
}

// notRecordedError: a stored version recorded no read of a product its
// block's query names.
type notRecordedError struct {
	s       *warehouse.StoredVersion
	product string
}

func (e *notRecordedError) Error() string {
	return fmt.Sprintf("%s version %d recorded no read of %s, which its query names: written before its lineage was recorded; a backfill rewrites it",
		e.s.Product, e.s.Version, e.product)
}

// recordedCovering are the partitions of product in rec (what a stored run
// read of it) that cover partition key of reader: overlapping it in time
// and of its value for every dimension both have, in time order. These
// are the cells mapped onto key when the run read them, whatever the key
// sets of product's dynamic dimensions hold now.
func recordedCovering(reader partitions.Spec, key string, e *Engine, product string, rec map[string]int) ([]string, error) {
	_, block := e.productBlock(product)
	if block == nil {
		return nil, fmt.Errorf("replay: no pipeline writes %s now", product)
	}
	ps, err := SpecOf(block.Partitions)
	if err != nil {
		return nil, err
	}
	rp, err := reader.Parse(key)
	if err != nil {
		return nil, err
	}
	type cell struct {
		key   string
		start time.Time
	}
	var cells []cell
	for k := range rec {
		p, err := ps.Parse(k)
		if err != nil {
			continue // not a cell of the product's partitioning now
		}
		if ps.Interval != partitions.None && reader.Interval != partitions.None && !(p.Start.Before(rp.End) && rp.Start.Before(p.End)) {
			continue
		}
		covers := true
		for _, d := range ps.Dims {
			if v, ok := reader.Value(rp, d.Name); ok {
				got, _ := ps.Value(p, d.Name)
				covers = covers && got == v
			}
		}
		if covers {
			cells = append(cells, cell{k, p.Start})
		}
	}
	sort.Slice(cells, func(i, j int) bool {
		if !cells[i].start.Equal(cells[j].start) {
			return cells[i].start.Before(cells[j].start)
		}
		return cells[i].key < cells[j].key
	})
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = c.key
	}
	return out, nil
}
