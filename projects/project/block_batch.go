package project

import (
	"slices"
	"strings"
)

// A SQL block may compute a window of partitions in one run
// (batch: {max: 30}): one query over the window instead of one per
// partition, each partition still published and versioned on its own.

// MaxBatch bounds batch.max: a window is held in memory until its
// partitions have published.
const MaxBatch = 366

var batchFields = []string{"max", "across"}

// decodeBatch reads batch: {max: N, across: [dim, ...]}.
func (d *decoder) decodeBatch(e entry, path string) (int, []string) {
	f, ok := d.fields(e.val, path, "a batch mapping such as {max: 30}", batchFields)
	if !ok {
		return 0, nil
	}
	var across []string
	if a, ok := f["across"]; ok {
		if across, _, ok = d.strList(a, path+".across"); !ok {
			return 0, nil
		}
	}
	m, ok := f["max"]
	if !ok {
		d.addf(e.val, path+".max", "missing max: the most partitions one run computes, such as {max: 30}")
		return 0, nil
	}
	n, ok := d.integer(m, path+".max")
	if !ok {
		return 0, nil
	}
	if n < 1 || n > MaxBatch {
		d.addf(m.val, path+".max", "max %d: want between 1 and %d partitions per run", n, MaxBatch)
		return 0, nil
	}
	return n, across
}

// checkBatches refuses a batch where one run cannot compute several
// partitions: a Go block (it computes the partition ctx.Partition names),
// a block without a time dimension, one of a coarser interval than the
// pipeline's (a rollup), one in a fan-out, and one reading upstream blocks
// (their versions are pinned per partition; a batch reads raw tables and
// named products).
func (d *decoder) checkBatches(pl *Pipeline) {
	for _, b := range pl.Blocks {
		e, ok := b.fields["batch"]
		if !ok || b.Batch == 0 {
			continue
		}
		at := index("blocks", b.index) + ".batch"
		switch {
		case b.Kind != KindSQL:
			d.addf(e.val, at, "block %s is a Go block: only a SQL block computes several partitions in one run (remove batch)", b.ID)
		case b.Partitions.Interval == "" || b.Partitions.Interval == "none":
			d.addf(e.val, at, "block %s has no time dimension: a batch is a window of consecutive time partitions", b.ID)
		case b.Partitions.Interval != pl.Partitions.Interval:
			d.addf(e.val, at, "block %s is partitioned by %s, the pipeline by %s: only a block partitioned like its pipeline runs in batches", b.ID, b.Partitions.Interval, pl.Partitions.Interval)
		case b.Dynamic || b.Reduce || b.FanOut != "":
			d.addf(e.val, at, "block %s is part of a fan-out: its runs are per child, not per partition", b.ID)
		case len(b.Upstream) > 0:
			d.addf(e.val, at, "block %s reads upstream blocks (%s), whose versions are read per partition: a batch block reads tables and products by name", b.ID, b.Upstream[0])
		}
		seen := map[string]bool{}
		for _, name := range b.BatchAcross {
			known := slices.ContainsFunc(b.Partitions.Dims, func(dc DimConfig) bool { return dc.Name == name })
			switch {
			case !known:
				var names []string
				for _, dc := range b.Partitions.Dims {
					names = append(names, dc.Name)
				}
				want := "this pipeline has no value dimension"
				if len(names) > 0 {
					want = "want one of " + strings.Join(names, ", ")
				}
				d.addf(e.val, at+".across", "block %s: %q is not a value dimension of its partitions: %s", b.ID, name, want)
			case seen[name]:
				d.addf(e.val, at+".across", "block %s: dimension %s is named twice", b.ID, name)
			}
			seen[name] = true
		}
	}
}
