package engine

import (
	"context"
	"fmt"

	"github.com/stratahq/strata/projects/warehouse"
)

// RollbackProduct makes a kept version of one partition of a product
// current again, and tells event triggers: what a downstream computed from
// the replaced version no longer matches the upstream's current data, as
// after a rewrite.
func (e *Engine) RollbackProduct(ctx context.Context, product, partition string, to int) error {
	if err := e.wh.Rollback(ctx, product, partition, to); err != nil {
		return err
	}
	pl := ""
	if owner, _ := e.project().Product(product); owner != nil {
		pl = owner.ID
	}
	e.published(pl, fmt.Sprintf("rollback_%s_%s_v%d", product, partition, to), "",
		[]warehouse.VersionRef{{Product: product, Partition: partition, Version: to}})
	return nil
}
