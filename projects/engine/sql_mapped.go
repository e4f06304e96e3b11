package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// A SQL block that names another pipeline's product (FROM orders) reads
// its main view: every cell of it. Where the two pipelines' partitionings
// map onto each other (a day reader of a day × region product, a week ×
// region reader of it: cell_read.go), the query reads the cells covering
// its partition instead, as ctx.Product(orders, sdk.One(key)) does: the
// name is bound, for this query only, to those cells' versions, which are
// what the version records it read. Pipelines of one layout, and
// one-dimensional ones, read the whole product as before.
//
// The three ways a SQL query runs read them alike:
//   - a run: the covering cells' current versions (an environment's
//     pinned ones in it), after a max_age of the reader's pipeline has
//     refreshed those too old or missing, as a Go block's read does;
//   - a batch window (sql_batch.go): the union of the covering cells of
//     every cell of the window in one query, each cell recording only its
//     own covering cells, so a rewrite of one makes only its readers stale;
//   - a replay: the versions the stored run recorded, never the current
//     ones (replay_pins.go), and no refresh (a replay writes nothing);
//   - an editor run (interactive.go): as a run, without the refresh (a
//     cell publishes nothing, and reads the rest of a product as it is).

// mappedInputs are the inputs binding the products a query names to the
// cells of them covering its cells.
type mappedInputs struct {
	ins []warehouse.SQLInput // one per product mapped
	// cells is, by cell of the query and product, the keys covering it.
	cells map[string]map[string][]string
}

// mappedSQLInputs are the mapped inputs of block b's query, for the cells
// (keys of g's spec: g's partition, or a batch window's cells). In a
// replay, every product the query names that the stored version recorded
// reading, mapped or whole, is bound to the versions it recorded.
func (r *runner) mappedSQLInputs(ctx context.Context, g *group, b *project.Block, query string, cells []string) (*mappedInputs, error) {
	out := &mappedInputs{cells: map[string]map[string][]string{}}
	for _, product := range r.e.wh.ProductsMentioned(query) {
		owner, _ := r.e.productBlock(product)
		if owner == nil {
			continue
		}
		var keys []string
		if owner.ID != r.pl.ID {
			var err error
			if keys, err = r.mapCells(ctx, g, product, cells, out); err != nil && r.replay == nil {
				return nil, err
			}
			// (A replay reads what was recorded; the mapping, which a key
			// set changed since may fail, only orders it.)
		}
		var refs []warehouse.VersionRef
		var err error
		switch {
		case r.replay != nil:
			refs, err = r.replay.recordedReads(ctx, b, product, keys)
			var none *notRecordedError
			if errors.As(err, &none) && keys == nil {
				continue // read whole and recorded nothing (its own product): as a run reads it
			}
		case keys == nil:
			continue // not mapped: the query reads the whole product
		default:
			refs, err = r.mappedVersions(ctx, product, keys)
		}
		if err != nil {
			return nil, err
		}
		if len(refs) == 0 {
			what := fmt.Sprintf("%s %s", g.spec.Interval, cells[0])
			if len(cells) > 1 {
				what = fmt.Sprintf("the %d cells %s..%s of its window", len(cells), cells[0], cells[len(cells)-1])
			}
			return nil, fmt.Errorf("the query reads %s: it has no data for %s (the cells %s..%s of %s map onto it)",
				product, what, keys[0], keys[len(keys)-1], product)
		}
		out.ins = append(out.ins, warehouse.SQLInput{Name: product, Read: refs})
	}
	return out, nil
}

// mapCells notes in out the cells of product (another pipeline's) mapped
// onto each of cells, and returns their union in read order; nil when
// the partitionings do not map (the query reads the whole product).
func (r *runner) mapCells(ctx context.Context, g *group, product string, cells []string, out *mappedInputs) ([]string, error) {
	var keys []string
	seen := map[string]bool{}
	for _, cell := range cells {
		ks, ok, err := r.e.mappedRead(ctx, g.spec, product, sdk.Window{Partition: cell})
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, nil // one spec: no cell of it maps if one does not
		}
		if out.cells[cell] == nil {
			out.cells[cell] = map[string][]string{}
		}
		out.cells[cell][product] = ks
		for _, k := range ks {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	return keys, nil
}

// mappedVersions are the versions of product's cells keys a run reads:
// refreshed first where the reader's max_age finds them too old or
// missing, then the current ones (in an environment, those it pinned).
func (r *runner) mappedVersions(ctx context.Context, product string, keys []string) ([]warehouse.VersionRef, error) {
	if !r.editor {
		if err := r.e.ensureFreshCells(ctx, r.pl, product, keys, r.opt.PreferPinned); err != nil {
			return nil, err
		}
	}
	have, err := r.e.currentVersions(ctx, product, keys)
	if err != nil {
		return nil, err
	}
	if r.opt.PreferPinned != "" {
		pinned, err := r.e.versionsPinned(ctx, product, keys, r.opt.PreferPinned)
		if err != nil {
			return nil, err
		}
		maps.Copy(have, pinned)
	}
	var refs []warehouse.VersionRef
	for _, k := range keys {
		if v, ok := have[k]; ok {
			refs = append(refs, warehouse.VersionRef{Product: product, Partition: k, Version: v})
		}
	}
	return refs, nil
}

// recordMapped records, as cell's ctx.Product reads, the versions of the
// mapped inputs (read, indexed as m.ins) that cover cell.
func (r *runner) recordMapped(block, cell string, m *mappedInputs, read [][]warehouse.VersionRef) {
	for i, in := range m.ins {
		if i >= len(read) {
			break
		}
		keys := m.cells[cell][in.Name]
		var mine []warehouse.VersionRef
		for _, ref := range read[i] {
			if slices.Contains(keys, ref.Partition) {
				mine = append(mine, ref)
			}
		}
		r.recordProductRead(block, cell, mine)
	}
}

// checkReplayed fails a replayed query that read another version than one
// bound to it: the warehouse gives way to the current version of a
// partition whose chosen one is gone, a replay must not (recorded).
func (r *runner) checkReplayed(ins []warehouse.SQLInput, read [][]warehouse.VersionRef) error {
	if r.replay == nil {
		return nil
	}
	for i, in := range ins {
		if len(in.Read) == 0 || i >= len(read) {
			continue
		}
		got := map[warehouse.VersionRef]bool{}
		for _, ref := range read[i] {
			got[ref] = true
		}
		for _, ref := range in.Read {
			if !got[ref] {
				return fmt.Errorf("replay: %s, which the stored version read, is gone (retention or a discard removed it since): it cannot be replayed on what its run saw; a backfill rewrites it", ref)
			}
		}
	}
	return nil
}
