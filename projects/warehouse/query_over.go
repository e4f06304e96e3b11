package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

// Relation names a set of versions of one product for QueryOver: the query
// sees them as a relation called Name (with a leading _partition column),
// e.g. a backfill's staged versions as staged_<product> beside the versions
// they would replace as current_<product>.
type Relation struct {
	Name     string
	Product  string
	Versions []PartitionVersion
}

// PartitionVersion is one version of one partition.
type PartitionVersion struct {
	Partition string `json:"partition"`
	Version   int    `json:"version"`
}

// QueryOver runs a read-only query with the relations in scope and returns
// its first limit rows and how many rows it returns in all. The relations
// are common table expressions over the storage tables, so nothing is
// copied; the query runs as a subquery and may have its own WITH.
func (w *Warehouse) QueryOver(ctx context.Context, rels []Relation, query string, limit int) (*sdk.Table, int64, error) {
	if err := checkReadOnly(query); err != nil {
		return nil, 0, err
	}
	var out *sdk.Table
	var total int64
	err := w.readTx(ctx, func(conn *sql.Conn) error {
		var ctes []string
		for _, r := range rels {
			if !productNameRE.MatchString(r.Name) {
				return fmt.Errorf("relation name %q is not an identifier", r.Name)
			}
			refs := make([]partVersion, len(r.Versions))
			for i, v := range r.Versions {
				refs[i] = partVersion{v.Partition, v.Version}
			}
			metas, err := versionMetas(ctx, conn, r.Product, refs)
			if err != nil {
				return err
			}
			var s side
			for _, ref := range refs {
				m := metas[ref]
				if m == nil {
					return missingVersion(ctx, conn, VersionRef{Product: r.Product, Partition: ref.partition, Version: ref.version})
				}
				s.metas = append(s.metas, m)
			}
			cols := schemaOf(s)
			if len(s.metas) == 0 {
				// An empty relation still has the product's newest columns,
				// so a query naming them binds.
				tables, err := productTables(ctx, conn, r.Product)
				if err != nil {
					return err
				}
				cols = unionSchema(newestFirst(tables))
			}
			ctes = append(ctes, quoteIdent(r.Name)+" AS ("+sideSQL(s, cols)+")")
		}
		with := ""
		if len(ctes) > 0 {
			with = "WITH " + strings.Join(ctes, ", ") + " "
		}
		body := strings.TrimRight(strings.TrimSpace(query), ";")
		if err := conn.QueryRowContext(ctx, with+"SELECT count(*) FROM ("+body+")").Scan(&total); err != nil {
			return err
		}
		q := with + "SELECT * FROM (" + body + ")"
		if limit > 0 {
			q += fmt.Sprintf(" LIMIT %d", limit)
		}
		rows, err := conn.QueryContext(ctx, q)
		if err != nil {
			return err
		}
		defer rows.Close()
		out, err = scanTable(rows)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("query: %w", err)
	}
	return out, total, nil
}
