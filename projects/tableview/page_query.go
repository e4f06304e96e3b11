package tableview

import (
	"errors"
	"fmt"
	"strings"
)

// ErrBadQuery marks a query that cannot apply to the result (a sort column
// it does not have, a negative offset): the asker's mistake, not the data's.
var ErrBadQuery = errors.New("bad page query")

// MaxLimit bounds one page; export reads the whole result instead.
const MaxLimit = 10_000

// SortKey orders by one column.
type SortKey struct {
	Column string
	Desc   bool
}

// Query asks for one page of a result.
type Query struct {
	Offset int
	Limit  int // rows in the page; 0 means all (export)
	Sort   []SortKey
	Filter string // rows where any cell's text contains it, ignoring case; "" keeps all
	// Columns are per-column filters (the boxes under the headers), all applied.
	Columns []ColumnFilter
}

// ParseSort reads "amount:desc,id" (":asc" is the default) into sort keys.
func ParseSort(s string) ([]SortKey, error) {
	var out []SortKey
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for _, part := range strings.Split(s, ",") {
		name, dir, _ := strings.Cut(strings.TrimSpace(part), ":")
		if name == "" {
			return nil, fmt.Errorf("%w: sort %q: empty column name (want col[:asc|desc],…)", ErrBadQuery, s)
		}
		k := SortKey{Column: name}
		switch strings.ToLower(dir) {
		case "", "asc":
		case "desc":
			k.Desc = true
		default:
			return nil, fmt.Errorf("%w: sort %q: direction %q of column %q is not asc or desc", ErrBadQuery, s, dir, name)
		}
		out = append(out, k)
	}
	return out, nil
}

// FormatSort is the inverse of ParseSort.
func FormatSort(keys []SortKey) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.Column
		if k.Desc {
			parts[i] += ":desc"
		}
	}
	return strings.Join(parts, ",")
}

// Check validates q against the result's column names: every sort column
// must exist (matched case-insensitively, as in DuckDB), offset and limit be
// in range. It returns the sort keys with the columns' own spelling.
func (q Query) Check(columns []string) (Query, error) {
	if q.Offset < 0 {
		return q, fmt.Errorf("%w: offset %d is negative", ErrBadQuery, q.Offset)
	}
	if q.Limit < 0 || q.Limit > MaxLimit {
		return q, fmt.Errorf("%w: limit %d is out of range (want 1 to %d, or 0 for all rows)", ErrBadQuery, q.Limit, MaxLimit)
	}
	keys := make([]SortKey, len(q.Sort))
	for i, k := range q.Sort {
		found := ""
		for _, c := range columns {
			if strings.EqualFold(c, k.Column) {
				found = c
				break
			}
		}
		if found == "" {
			return q, fmt.Errorf("%w: sort column %q is not in the result (columns: %s)", ErrBadQuery, k.Column, strings.Join(columns, ", "))
		}
		keys[i] = SortKey{Column: found, Desc: k.Desc}
	}
	q.Sort = keys
	var fs []ColumnFilter
	for _, f := range q.Columns {
		if strings.TrimSpace(f.Expr) == "" {
			continue
		}
		found := ""
		for _, c := range columns {
			if strings.EqualFold(c, f.Column) {
				found = c
				break
			}
		}
		if found == "" {
			return q, fmt.Errorf("%w: filter on column %q, which is not in the result (columns: %s)", ErrBadQuery, f.Column, strings.Join(columns, ", "))
		}
		if _, err := parseFilter(f.Expr); err != nil {
			return q, fmt.Errorf("%w: filter on %s: %v", ErrBadQuery, found, err)
		}
		fs = append(fs, ColumnFilter{Column: found, Expr: f.Expr})
	}
	q.Columns = fs
	return q, nil
}
