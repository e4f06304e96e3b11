package engine

import (
	"context"
	"fmt"
	"maps"

	"github.com/stratahq/strata/blocks/sdk"
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

// mappedSQLInputs are the inputs binding the products query names to the
// cells of them that cover g's partition.
func (r *runner) mappedSQLInputs(ctx context.Context, g *group, query string) ([]warehouse.SQLInput, error) {
	var out []warehouse.SQLInput
	for _, product := range r.e.wh.ProductsMentioned(query) {
		owner, _ := r.e.productBlock(product)
		if owner == nil || owner.ID == r.pl.ID {
			continue
		}
		keys, mapped, err := r.e.mappedRead(ctx, g.spec, product, sdk.Window{Partition: g.part.Key})
		if err != nil {
			return nil, err
		}
		if !mapped {
			continue
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
		if len(refs) == 0 {
			return nil, fmt.Errorf("the query reads %s: it has no data for %s %s (the cells %s..%s of %s map onto it)",
				product, g.spec.Interval, g.part.Key, keys[0], keys[len(keys)-1], product)
		}
		out = append(out, warehouse.SQLInput{Name: product, Read: refs})
	}
	return out, nil
}
