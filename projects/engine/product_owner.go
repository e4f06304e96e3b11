package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// A global product belongs to the pipeline that first published it, as
// the warehouse records it (warehouse/product_owner.go). The engine hands
// that record to every project it is given (New, SetProject), so the
// pipeline that declares a product another one owns is the broken one,
// whatever the file names; and every publish names its pipeline, so the
// warehouse refuses a write by any other.

// ownersDerivedKey marks, in _strata.meta, a warehouse whose products from
// before owners were recorded have been given their owners.
const ownersDerivedKey = "owners_derived"

// applyOwners hands proj the recorded owners. Without them (a read-only
// file from before the record) the project keeps the file order.
func (e *Engine) applyOwners(ctx context.Context, proj *project.Project) {
	owners, err := e.wh.OwnerPipelines(ctx)
	if err != nil {
		return
	}
	proj.SetProductOwners(owners)
}

// deriveOwners records, once per warehouse, an owner for each product
// written before owners were recorded: the pipeline of its oldest kept
// version's run (run_events name it). Otherwise the first publish after
// an upgrade would record whichever pipeline sorts first, which is the
// takeover this record prevents.
func (e *Engine) deriveOwners(ctx context.Context) error {
	db := e.wh.DB()
	var done string
	switch err := db.QueryRowContext(ctx, `SELECT value FROM _strata.meta WHERE key = ?`, ownersDerivedKey).Scan(&done); {
	case err == nil:
		return nil
	case !errors.Is(err, sql.ErrNoRows):
		return err
	}
	rows, err := db.QueryContext(ctx, `SELECT v.product, arg_min(r.pipeline, v.created_at)
		FROM _strata.versions v
		JOIN (SELECT run_id, max(pipeline) AS pipeline FROM _strata.run_events
			WHERE pipeline IS NOT NULL AND pipeline <> '' GROUP BY run_id) r ON r.run_id = v.run_id
		GROUP BY v.product`)
	if err != nil {
		return fmt.Errorf("derive product owners: %w", err)
	}
	owners := map[string]string{}
	for rows.Next() {
		var product, pl string
		if err := rows.Scan(&product, &pl); err != nil {
			rows.Close()
			return err
		}
		owners[product] = pl
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if err := e.wh.AdoptOwners(ctx, owners, "derived from its oldest kept run"); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `INSERT INTO _strata.meta VALUES (?, 'yes')`, ownersDerivedKey)
	return err
}

// ProductOwners lists the recorded owner of each product.
func (e *Engine) ProductOwners(ctx context.Context) (map[string]warehouse.ProductOwner, error) {
	return e.wh.ProductOwners(ctx)
}

// TransferProduct makes pipeline to the owner of product: the explicit
// act that lets another pipeline write it. The pipeline must exist and
// declare the product; the project is loaded again, so the former owner,
// if it still declares the product, is now the broken one.
func (e *Engine) TransferProduct(ctx context.Context, product, to string) (from string, err error) {
	proj := e.project()
	pl := proj.Pipelines[to]
	if pl == nil {
		return "", fmt.Errorf("transfer %s: pipeline %q not found (pipelines: %v)", product, to, proj.PipelineIDs())
	}
	declares := false
	for _, b := range pl.Blocks {
		declares = declares || b.Product == product
	}
	if !declares {
		return "", fmt.Errorf("transfer %s: pipeline %s (%s) has no block with `product: %s`; declare it there first", product, to, pl.File, product)
	}
	if from, err = e.wh.TransferProduct(ctx, product, to); err != nil {
		return "", err
	}
	if fresh, _ := project.Load(proj.Dir); fresh != nil {
		e.SetProject(fresh)
	}
	return from, nil
}
