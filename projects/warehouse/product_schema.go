package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

// Schemas is the columns of each named product as its newest current
// version has them (the _partition column left out): what an editor offers
// as completions of a SQL block's tables. A product without a current
// version is absent.
func (w *Warehouse) Schemas(ctx context.Context, products []string) (map[string][]sdk.Field, error) {
	out := map[string][]sdk.Field{}
	if len(products) == 0 {
		return out, nil
	}
	args := make([]any, len(products))
	for i, p := range products {
		args[i] = p
	}
	err := w.readTx(ctx, func(conn *sql.Conn) error {
		rows, err := conn.QueryContext(ctx, `SELECT product, CAST(arg_max(schema, created_at) AS VARCHAR) FROM _strata.versions
			WHERE is_current AND product IN (`+strings.TrimSuffix(strings.Repeat("?,", len(products)), ",")+`) GROUP BY product`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var prod, enc string
			if err := rows.Scan(&prod, &enc); err != nil {
				return err
			}
			fields, err := decodeSchema(enc)
			if err != nil {
				return fmt.Errorf("product %s: %w", prod, err)
			}
			kept := fields[:0]
			for _, f := range fields {
				if f.Name != PartitionColumn {
					kept = append(kept, f)
				}
			}
			out[prod] = kept
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("read product schemas: %w", err)
	}
	return out, nil
}
