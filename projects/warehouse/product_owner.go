package warehouse

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Who owns a global product. Two pipelines may declare the same product
// name; which one's runs write it must not depend on file names (a new
// pipelines/copy.yaml, sorting first, took "sales" from main.yaml, and
// retention then dropped main's last versions). The catalog records, in
// the transaction of a product's first publish, the pipeline that
// published it (Output.Pipeline); the project loader hands that record to
// the project (project.SetProductOwners), so a second claimant is the
// broken pipeline; and a publish by any other pipeline is refused here
// too, whatever the caller loaded. Only TransferProduct moves it.

var ownerDDL = []string{
	`CREATE TABLE IF NOT EXISTS _strata.product_owners (
		product  VARCHAR NOT NULL,
		pipeline VARCHAR NOT NULL,
		since    TIMESTAMPTZ NOT NULL,
		how      VARCHAR NOT NULL -- first publish, derived from its runs, transfer from X
	)`,
}

// ProductOwner is the recorded owner of a product.
type ProductOwner struct {
	Product  string    `json:"product"`
	Pipeline string    `json:"pipeline"`
	Since    time.Time `json:"since"`
	How      string    `json:"how"`
}

// ErrNotOwner is wrapped by a publish or transfer refused because the
// product belongs to another pipeline.
var ErrNotOwner = errors.New("product belongs to another pipeline")

// NotOwnerError refuses a publish of a product by a pipeline that does
// not own it.
type NotOwnerError struct {
	Product, Owner, Pipeline string
}

func (e *NotOwnerError) Error() string {
	return fmt.Sprintf("product %q belongs to pipeline %q (it published it first); pipeline %q cannot write it: rename the product there, or move ownership explicitly (strata products transfer)",
		e.Product, e.Owner, e.Pipeline)
}

// Unwrap lets errors.Is(err, ErrNotOwner) find it.
func (e *NotOwnerError) Unwrap() error { return ErrNotOwner }

// ProductOwners returns the recorded owner of each product, by product
// name. A file from before ownership was recorded has none.
func (w *Warehouse) ProductOwners(ctx context.Context) (map[string]ProductOwner, error) {
	if err := w.checkOpen(); err != nil {
		return nil, err
	}
	out := map[string]ProductOwner{}
	rows, err := w.db.QueryContext(ctx, `SELECT product, pipeline, since, how FROM _strata.product_owners`)
	if err != nil {
		if w.readOnly && strings.Contains(err.Error(), "does not exist") {
			return out, nil // read-only on a file that predates the table
		}
		return nil, fmt.Errorf("product owners: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var o ProductOwner
		if err := rows.Scan(&o.Product, &o.Pipeline, &o.Since, &o.How); err != nil {
			return nil, err
		}
		o.Since = o.Since.UTC()
		out[o.Product] = o
	}
	return out, rows.Err()
}

// OwnerPipelines is ProductOwners as product -> pipeline id.
func (w *Warehouse) OwnerPipelines(ctx context.Context) (map[string]string, error) {
	owners, err := w.ProductOwners(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(owners))
	for p, o := range owners {
		out[p] = o.Pipeline
	}
	return out, nil
}

// AdoptOwners records owners for products that have none, as how says
// they were found (a warehouse written before owners were recorded: the
// pipeline of each product's first kept run). A recorded owner is kept.
func (w *Warehouse) AdoptOwners(ctx context.Context, owners map[string]string, how string) error {
	if len(owners) == 0 {
		return nil
	}
	names := make([]string, 0, len(owners))
	for p := range owners {
		names = append(names, p)
	}
	sort.Strings(names)
	return w.write(ctx, func(tx *writeTx) error {
		known, err := tx.owners()
		if err != nil {
			return err
		}
		for _, p := range names {
			if _, ok := known[strings.ToLower(p)]; ok {
				continue
			}
			if err := tx.recordOwner(p, owners[p], how); err != nil {
				return err
			}
		}
		return nil
	})
}

// TransferProduct makes pipeline to the owner of product, which must have
// an owner (or versions) already; it returns the previous owner. This is
// the one way ownership moves.
func (w *Warehouse) TransferProduct(ctx context.Context, product, to string) (string, error) {
	if to == "" {
		return "", errors.New("transfer: no pipeline to transfer to")
	}
	var from string
	err := w.write(ctx, func(tx *writeTx) error {
		known, err := tx.owners()
		if err != nil {
			return err
		}
		cur, ok := known[strings.ToLower(product)]
		if !ok {
			if err := missingProduct(tx.ctx, tx.conn, product); err != nil {
				return err
			}
		}
		from = cur.Pipeline
		if from == to {
			return fmt.Errorf("product %q already belongs to pipeline %q", product, to)
		}
		name := product
		if ok {
			name = cur.Product
		}
		if err := tx.exec(`DELETE FROM _strata.product_owners WHERE lower(product) = lower(?)`, product); err != nil {
			return err
		}
		how := "transfer"
		if from != "" {
			how = "transfer from " + from
		}
		return tx.recordOwner(name, to, how)
	})
	if err != nil {
		return "", fmt.Errorf("transfer %s to pipeline %s: %w", product, to, err)
	}
	return from, nil
}

// owners is the writer's cache of the recorded owners, by lower-cased
// product name, loaded on first use.
func (tx *writeTx) owners() (map[string]ProductOwner, error) {
	w := tx.w
	if w.owners != nil {
		return w.owners, nil
	}
	rows, err := tx.conn.QueryContext(tx.ctx, `SELECT product, pipeline, since, how FROM _strata.product_owners`)
	if err != nil {
		return nil, fmt.Errorf("product owners: %w", err)
	}
	defer rows.Close()
	out := map[string]ProductOwner{}
	for rows.Next() {
		var o ProductOwner
		if err := rows.Scan(&o.Product, &o.Pipeline, &o.Since, &o.How); err != nil {
			return nil, err
		}
		out[strings.ToLower(o.Product)] = o
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	w.owners = out
	return out, nil
}

// recordOwner writes an owner row in tx; the cache learns it once the
// transaction committed (the commit applies tx.newOwners).
func (tx *writeTx) recordOwner(product, pipeline, how string) error {
	now := time.Now().UTC()
	if err := tx.exec(`INSERT INTO _strata.product_owners VALUES (?, ?, ?, ?)`, product, pipeline, now, how); err != nil {
		return fmt.Errorf("record the owner of %s: %w", product, err)
	}
	if tx.newOwners == nil {
		tx.newOwners = map[string]ProductOwner{}
	}
	tx.newOwners[strings.ToLower(product)] = ProductOwner{Product: product, Pipeline: pipeline, Since: now, How: how}
	return nil
}

// claimOwners checks that each output's pipeline owns its product, and
// records the pipeline as the owner of a product published for the first
// time. Outputs without a pipeline (tests, tools) are not checked.
func (tx *writeTx) claimOwners(outs []preparedOutput) error {
	for i := range outs {
		o := &outs[i]
		if o.Pipeline == "" {
			continue
		}
		key := strings.ToLower(o.Product)
		cur, ok := tx.newOwners[key]
		if !ok {
			known, err := tx.owners()
			if err != nil {
				return err
			}
			cur, ok = known[key]
		}
		if ok {
			if cur.Pipeline != o.Pipeline {
				return &NotOwnerError{Product: o.Product, Owner: cur.Pipeline, Pipeline: o.Pipeline}
			}
			continue
		}
		if err := tx.recordOwner(o.Product, o.Pipeline, "first publish"); err != nil {
			return err
		}
	}
	return nil
}
