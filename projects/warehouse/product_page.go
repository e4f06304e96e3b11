package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/tableview"
)

// ReadPage reads one page of the selected partitions of a product: q's
// filter and sort applied by DuckDB over the whole selection (not over the
// rows a preview happened to fetch), then its offset and limit (0: all
// rows, for export). total counts the rows that passed the filter. Rows that
// sort equal keep the read order of Read, so paging is stable.
func (w *Warehouse) ReadPage(ctx context.Context, product string, sel Selection, q tableview.Query) (*sdk.Table, int64, error) {
	if err := sel.validate(); err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", product, err)
	}
	var out *sdk.Table
	var total int64
	err := w.readTx(ctx, func(conn *sql.Conn) error {
		parts, err := resolveSelection(ctx, conn, product, sel)
		if err != nil {
			return err
		}
		storage, err := productTables(ctx, conn, product)
		if err != nil {
			return err
		}
		if len(parts) == 0 {
			out = emptyRead(storage)
			_, err := q.Check(tableColumnNames(out))
			return err
		}
		inner, cols := unionSQL(parts, storage)
		names := []string{colPartition}
		for _, c := range cols {
			names = append(names, c.name)
		}
		if q, err = q.Check(names); err != nil {
			return err
		}
		where, order := tableview.SQL(q, names, "__strata_ord, __strata_rid")
		from := "FROM (\n" + inner + "\n) AS r"
		if where != "" {
			from += " WHERE " + where
			if err := conn.QueryRowContext(ctx, "SELECT count(*) "+from).Scan(&total); err != nil {
				return fmt.Errorf("count filtered rows: %w", err)
			}
		} else {
			for _, p := range parts {
				total += p.rows
			}
		}
		query := "SELECT * EXCLUDE (__strata_ord, __strata_rid) " + from + " ORDER BY " + order
		if q.Limit > 0 {
			query += fmt.Sprintf(" LIMIT %d", q.Limit)
		}
		if q.Offset > 0 {
			query += fmt.Sprintf(" OFFSET %d", q.Offset)
		}
		rows, err := conn.QueryContext(ctx, query)
		if err != nil {
			return err
		}
		defer rows.Close()
		out, err = scanTable(rows)
		return err
	})
	if err != nil {
		if len(q.Columns) > 0 && strings.Contains(err.Error(), "Conversion Error") {
			// A column filter's value DuckDB cannot read as its column's
			// type (">abc" on a number): the asker's mistake.
			return nil, 0, fmt.Errorf("read %s: %w: a column filter: %v", product, tableview.ErrBadQuery, err)
		}
		return nil, 0, fmt.Errorf("read %s: %w", product, err)
	}
	return out, total, nil
}

func tableColumnNames(t *sdk.Table) []string {
	out := make([]string, 0, len(t.Columns()))
	for _, c := range t.Columns() {
		out = append(out, c.Name)
	}
	return out
}
