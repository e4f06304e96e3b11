package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/stratahq/strata/projects/project"
)

// A backfill of a subset of blocks (Dagster's asset subset) recomputes
// only those blocks over its range. What it means for the rest:
//
//   - A block of the subset whose upstream is left out reads that
//     upstream's current versions from the warehouse, as a run reads an
//     upstream of another pipeline; a partition where it has none fails
//     with "upstream X has no data for …", naming it.
//   - A block downstream of the subset that is left out is not run: it
//     keeps its versions, computed from the versions the subset replaced,
//     so they are stale (its page and the plan say "upstream changed"),
//     and a later backfill with reprocess=stale recomputes them.
//   - Which partitions run is decided over the subset's products only:
//     reprocess=missing runs a partition where a block of the subset has
//     no data, whatever the others have.
//
// A fan-out region (a dynamic block and the blocks it runs one child per
// row of) is run whole or not at all, and the subset needs a block
// partitioned like the pipeline: the partitions it walks are the
// pipeline's (its rollups follow from them).

// SubsetNote says in one line what a subset means, for the CLI and the
// launch form.
const SubsetNote = "the other blocks are not run: a block of the subset reads their current versions, and a block left out downstream of it keeps its versions, which become stale"

// checkSubset validates a backfill's block subset against pl and returns
// it deduplicated in pipeline order; nil for every block.
func checkSubset(pl *project.Pipeline, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	want := map[string]bool{}
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" {
			continue
		}
		b := pl.Block(id)
		if b == nil {
			var all []string
			for _, b := range pl.Blocks {
				all = append(all, b.ID)
			}
			return nil, fmt.Errorf("blocks: pipeline %s has no block %q (its blocks: %s)", pl.ID, id, strings.Join(all, ", "))
		}
		if b.Entry == project.EntryExport {
			return nil, fmt.Errorf("blocks: %s is an export, which writes no product to backfill; give the blocks it exports", id)
		}
		want[id] = true
	}
	if len(want) == 0 {
		return nil, nil
	}
	var out []string
	fine := false
	for _, b := range pl.Order() {
		if !want[b.ID] {
			continue
		}
		out = append(out, b.ID)
		if b.Partitions.Interval == pl.Partitions.Interval {
			fine = true
		}
		// A fan-out child runs through its parent: both or neither.
		if b.FanOut != "" && !want[b.FanOut] {
			return nil, fmt.Errorf("blocks: %s runs once per row of the dynamic block %s: give both or neither", b.ID, b.FanOut)
		}
		if b.Dynamic {
			for _, c := range pl.Blocks {
				if c.FanOut == b.ID && !want[c.ID] && c.Entry != project.EntryExport {
					return nil, fmt.Errorf("blocks: %s runs once per row of the dynamic block %s: give both or neither", c.ID, b.ID)
				}
			}
		}
	}
	if !fine {
		return nil, fmt.Errorf("blocks: the subset %s has no block partitioned by %s like the pipeline; add one (a rollup is recomputed from the %s partitions a backfill walks)",
			strings.Join(out, ", "), pl.Partitions.Interval, pl.Partitions.Interval)
	}
	if len(out) == len(nonExports(pl)) {
		return nil, nil // every block: the same as no subset
	}
	return out, nil
}

func nonExports(pl *project.Pipeline) []*project.Block {
	var out []*project.Block
	for _, b := range pl.Blocks {
		if b.Entry != project.EntryExport {
			out = append(out, b)
		}
	}
	return out
}

// split is splitBlocks for the target's subset: the blocks the backfill
// classifies and runs, fine and by coarser interval.
func (t *target) split() (fine []*project.Block, coarse map[string][]*project.Block) {
	fine, coarse = splitBlocks(t.pl)
	if len(t.spec.Blocks) == 0 {
		return fine, coarse
	}
	in := func(b *project.Block) bool { return !slices.Contains(t.spec.Blocks, b.ID) }
	fine = slices.DeleteFunc(fine, in)
	for iv, bs := range coarse {
		if bs = slices.DeleteFunc(bs, in); len(bs) == 0 {
			delete(coarse, iv)
		} else {
			coarse[iv] = bs
		}
	}
	return fine, coarse
}

// loadPlanData is the engine's plan data for the target's pipeline, with
// its fine and coarse blocks narrowed to the subset.
func (t *target) loadPlanData(ctx context.Context, e *Engine, dir string) (*planData, error) {
	pd, err := e.loadPlanData(ctx, dir, t.pl, t.spec.Into)
	if err != nil {
		return nil, err
	}
	pd.fine, pd.coarse = t.split()
	return pd, nil
}

// blocksOnly is the plan data of a pass whose plan is kept as rows: its
// blocks, no versions (the plan decided every cell and rollup).
func (t *target) blocksOnly() *planData {
	pd := &planData{current: map[string]map[string]versionInfo{}, lastRun: map[string]State{}, timePos: t.pl.Partitions.TimePos}
	pd.fine, pd.coarse = t.split()
	return pd
}

// subsetGroups keeps only the blocks of a run's subset (all when empty),
// and drops the groups left with none.
func subsetGroups(groups []*group, blocks []string) []*group {
	if len(blocks) == 0 {
		return groups
	}
	out := groups[:0]
	for _, g := range groups {
		g.blocks = slices.DeleteFunc(g.blocks, func(b *project.Block) bool { return !slices.Contains(blocks, b.ID) })
		if len(g.blocks) > 0 {
			out = append(out, g)
		}
	}
	return out
}
