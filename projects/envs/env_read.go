package envs

import (
	"context"
	"fmt"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/warehouse"
)

// Read is warehouse.ReadCounted as the environment sees the product: in
// each selected partition its own version where it has one, prod's current
// one elsewhere (the versions its overlay views show). A read of one past
// version (sel.Version) reads that version, as in prod.
func (s *Store) Read(ctx context.Context, name, product string, sel warehouse.Selection, limit int) (*sdk.Table, int64, error) {
	if name == "" || name == Prod || sel.Version != 0 {
		return s.wh.ReadCounted(ctx, product, sel, limit)
	}
	if _, err := s.Get(ctx, name); err != nil {
		return nil, 0, err
	}
	refs, total, err := s.pointers(ctx, name, product, sel)
	if err != nil {
		return nil, 0, err
	}
	if len(refs) == 0 {
		// Nothing selected: prod's read says so (an empty table with the
		// product's columns, or that the product or partition is unknown).
		return s.wh.ReadCounted(ctx, product, sel, limit)
	}
	t, _, err := s.wh.ReadVersions(ctx, refs)
	if err != nil {
		return nil, 0, err
	}
	if limit > 0 && t.Len() > limit {
		head := sdk.NewTable(t.Schema()...)
		for i := range limit {
			head.Append(t.Row(i)...)
		}
		t = head
	}
	return t, total, nil
}

// pointers are the versions the environment shows of the selected
// partitions, in partition order, and their row count.
func (s *Store) pointers(ctx context.Context, name, product string, sel warehouse.Selection) ([]warehouse.VersionRef, int64, error) {
	where := []string{"p.product = ?"}
	args := []any{product}
	switch {
	case len(sel.Partitions) > 0:
		ph := strings.TrimSuffix(strings.Repeat("?,", len(sel.Partitions)), ",")
		where = append(where, "p.partition IN ("+ph+")")
		for _, k := range sel.Partitions {
			args = append(args, k)
		}
	case !sel.From.IsZero() || !sel.To.IsZero():
		if !sel.From.IsZero() {
			where, args = append(where, "v.partition_start >= ?"), append(args, sel.From)
		}
		if !sel.To.IsZero() {
			where, args = append(where, "v.partition_start <= ?"), append(args, sel.To)
		}
	}
	q := fmt.Sprintf(`SELECT p.partition, p.version, v.row_count, v.partition_start FROM %s p
		JOIN _strata.versions v ON v.product = p.product AND v.partition = p.partition AND v.version = p.version
		WHERE %s ORDER BY v.partition_start DESC, p.partition DESC`, warehouse.OverlayPointers(name), strings.Join(where, " AND "))
	if sel.Last > 0 {
		q += fmt.Sprintf(" LIMIT %d", sel.Last)
	}
	rows, err := s.wh.DB().QueryContext(ctx, q, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("read %s in %s: %w", product, name, err)
	}
	defer rows.Close()
	var refs []warehouse.VersionRef
	var total int64
	for rows.Next() {
		var r warehouse.VersionRef
		var n int64
		var start any
		if err := rows.Scan(&r.Partition, &r.Version, &n, &start); err != nil {
			return nil, 0, err
		}
		r.Product = product
		refs = append(refs, r)
		total += n
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	// Oldest first, as prod's reads return them.
	for i, j := 0, len(refs)-1; i < j; i, j = i+1, j-1 {
		refs[i], refs[j] = refs[j], refs[i]
	}
	return refs, total, nil
}
