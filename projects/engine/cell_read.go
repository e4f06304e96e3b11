package engine

import (
	"context"
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// Reads between pipelines of different dimensions. A block reading another
// pipeline's product with a key of its own partitioning, such as
// ctx.Product("orders__agg", sdk.One(ctx.Partition.Key)), reads the cells of
// the product that cover that partition: a day reader of a day × region
// product reads every region of its day; a week × region reader of a day ×
// region product reads its week's days of its region. The mapping is the
// partitions package's (Spec.Covering); the versions read are recorded as
// for any ctx.Product read, so rewriting one region's day makes the day
// reader stale, as a rewritten day makes its week stale. A full key of the
// product (2024-03-10|eu) still reads that one cell.

// mappedRead reports whether window w of a reader partitioned by reader is
// a key of the reader's space that must be mapped onto product's cells,
// and returns those cells' keys.
func (e *Engine) mappedRead(ctx context.Context, reader partitions.Spec, product string, w sdk.Window) ([]string, bool, error) {
	if w.Partition == "" {
		return nil, false, nil
	}
	owner, block := e.productBlock(product)
	if owner == nil {
		return nil, false, nil // the read itself reports the unknown product
	}
	ps, err := SpecOf(block.Partitions)
	if err != nil || (!ps.Dimensional() && !reader.Dimensional()) {
		return nil, false, nil
	}
	if _, err := ps.Parse(w.Partition); err == nil {
		return nil, false, nil // the product's own key: one cell
	}
	rp, err := reader.Parse(w.Partition)
	if err != nil {
		return nil, false, nil // neither space's key: the read reports it
	}
	for i, d := range ps.Dims {
		if d.Kind != partitions.Dynamic || d.Loaded() {
			continue
		}
		if _, shared := reader.Dim(d.Name); shared {
			continue // the reader's value is the one read
		}
		ks, err := e.keySet(ctx, owner.ID, d, 0)
		if err != nil {
			return nil, true, fmt.Errorf("read %s for %s: %w", product, w.Partition, err)
		}
		if ps.Dims[i], err = d.WithValues(ks.Keys); err != nil {
			return nil, true, err
		}
	}
	cells := reader.Covering(rp, ps)
	if len(cells) == 0 {
		return nil, true, fmt.Errorf("read %s for %s: no partition of %s (%s) covers it", product, w.Partition, product, ps)
	}
	keys := make([]string, len(cells))
	for i, c := range cells {
		keys[i] = c.Key
	}
	return keys, true, nil
}

// readMapped reads the mapped cells of product, after refreshing those a
// max_age of the reader's pipeline finds too old, and records what it read.
func (h *blockHandler) readMapped(ctx context.Context, product string, keys []string, err error) (*sdk.Table, error) {
	if err != nil {
		return nil, err
	}
	// (A replay never comes here: it reads what the stored run read.)
	if err := h.r.e.ensureFreshCells(ctx, h.r.pl, product, keys, h.r.opt.PreferPinned); err != nil {
		return nil, err
	}
	t, read, err := h.r.e.wh.ReadSelected(ctx, product, warehouse.Selection{Partitions: keys, PreferPinned: h.r.opt.PreferPinned})
	if err == nil {
		h.r.recordProductRead(h.b.ID, h.part, read)
	}
	return t, err
}

// productBlock finds the pipeline and block that write product, by its
// declared name or its default pipeline__block one.
func (e *Engine) productBlock(product string) (*project.Pipeline, *project.Block) {
	proj := e.project()
	if pl, b := proj.Product(product); pl != nil {
		return pl, b
	}
	for _, id := range proj.PipelineIDs() {
		pl := proj.Pipelines[id]
		for _, b := range pl.Blocks {
			if ProductName(pl, b) == product {
				return pl, b
			}
		}
	}
	return nil, nil
}
