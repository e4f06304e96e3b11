package engine

import (
	"context"
	"fmt"

	"github.com/stratahq/strata/projects/warehouse"
)

// ProductKeys are the key columns the pipelines declare for a product
// (key: on the block that writes it); nil when none does.
func (e *Engine) ProductKeys(product string) []string {
	proj := e.project()
	for _, id := range proj.PipelineIDs() {
		pl := proj.Pipelines[id]
		for _, b := range pl.Blocks {
			if ProductName(pl, b) == product && len(b.Key) > 0 {
				return b.Key
			}
		}
	}
	return nil
}

// DiffVersions compares two kept versions of a product's partition, keyed
// by the product's declared key columns. to 0 means the current version;
// from 0 means the newest kept version older than to.
func (e *Engine) DiffVersions(ctx context.Context, product, partition string, from, to, rows int) (*warehouse.PartitionDiff, error) {
	if from == 0 || to == 0 {
		parts, err := e.wh.Partitions(ctx, product)
		if err != nil {
			return nil, err
		}
		var p *warehouse.PartitionInfo
		for i := range parts {
			if parts[i].Key == partition {
				p = &parts[i]
			}
		}
		if p == nil {
			return nil, errNotFoundf("product %s has no partition %s", product, partition)
		}
		if to == 0 {
			if to = p.Current; to == 0 {
				return nil, fmt.Errorf("%s partition %s has no current version: give --to-version", product, partition)
			}
		}
		if from == 0 {
			for _, v := range p.Versions {
				if v.Version < to {
					from = v.Version
				}
			}
			if from == 0 {
				return nil, fmt.Errorf("%s partition %s keeps no version older than %d to compare with: give --from-version", product, partition, to)
			}
		}
	}
	return e.wh.DiffVersions(ctx, product, partition, from, to, warehouse.DiffOptions{Keys: e.ProductKeys(product), Rows: rows})
}
