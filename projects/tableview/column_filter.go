package tableview

import (
	"cmp"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/blocks/tableio"
)

// ColumnFilter keeps the rows whose cell in Column matches Expr, the text
// typed in the filter box under a column's header:
//
//	null, !null              the cell is (not) null
//	>v  >=v  <v  <=v  =v  !=v compared as the column's type: numbers as
//	                          numbers, times as times (a date or a date and
//	                          time in the result's zone), text as text;
//	                          a null cell never matches a comparison
//	anything else             the cell's text contains it, ignoring case
//
// All of a query's column filters apply (AND), with its row filter.
type ColumnFilter struct {
	Column string `json:"column"`
	Expr   string `json:"expr"`
}

type filterOp struct {
	op  string // "null", "notnull", "contains", or a comparison: > >= < <= = !=
	val string
}

var comparisons = []string{">=", "<=", "!=", ">", "<", "="}

func parseFilter(expr string) (filterOp, error) {
	e := strings.TrimSpace(expr)
	switch strings.ToLower(e) {
	case "null":
		return filterOp{op: "null"}, nil
	case "!null":
		return filterOp{op: "notnull"}, nil
	}
	for _, op := range comparisons {
		if v, ok := strings.CutPrefix(e, op); ok {
			v = strings.TrimSpace(v)
			if v == "" {
				return filterOp{}, fmt.Errorf("%q: a value after %s, such as %s10", expr, op, op)
			}
			return filterOp{op: op, val: v}, nil
		}
	}
	return filterOp{op: "contains", val: strings.ToLower(e)}, nil
}

// CheckColumns validates q's column filters against t: every column must
// exist and every comparison value read as its column's type. Order applies
// only checked filters.
func CheckColumns(t *sdk.Table, q Query, loc *time.Location) error {
	_, err := compileFilters(t, q.Columns, loc)
	return err
}

// compileFilters turns the column filters into row predicates.
func compileFilters(t *sdk.Table, fs []ColumnFilter, loc *time.Location) ([]func(int) bool, error) {
	var out []func(int) bool
	for _, f := range fs {
		if strings.TrimSpace(f.Expr) == "" {
			continue
		}
		c := t.Column(f.Column)
		if c == nil {
			for _, x := range t.Columns() {
				if strings.EqualFold(x.Name, f.Column) {
					c = x
				}
			}
		}
		if c == nil {
			return nil, fmt.Errorf("%w: filter on column %q, which is not in the result", ErrBadQuery, f.Column)
		}
		p, err := compileFilter(c, f.Expr, loc)
		if err != nil {
			return nil, fmt.Errorf("%w: filter on %s: %v", ErrBadQuery, c.Name, err)
		}
		out = append(out, p)
	}
	return out, nil
}

func compileFilter(c *sdk.Column, expr string, loc *time.Location) (func(int) bool, error) {
	f, err := parseFilter(expr)
	if err != nil {
		return nil, err
	}
	switch f.op {
	case "null":
		return c.IsNull, nil
	case "notnull":
		return func(i int) bool { return !c.IsNull(i) }, nil
	case "contains":
		return func(i int) bool {
			return !c.IsNull(i) && strings.Contains(strings.ToLower(tableio.FormatValue(c, i, loc)), f.val)
		}, nil
	}
	cmpRow, err := comparer(c, f.val, loc)
	if err != nil {
		return nil, err
	}
	keep := map[string]func(int) bool{
		">": func(r int) bool { return r > 0 }, ">=": func(r int) bool { return r >= 0 },
		"<": func(r int) bool { return r < 0 }, "<=": func(r int) bool { return r <= 0 },
		"=": func(r int) bool { return r == 0 }, "!=": func(r int) bool { return r != 0 },
	}[f.op]
	return func(i int) bool { return !c.IsNull(i) && keep(cmpRow(i)) }, nil
}

// comparer reads v as c's type and returns how row i compares to it.
func comparer(c *sdk.Column, v string, loc *time.Location) (func(int) int, error) {
	switch c.Type {
	case sdk.TypeInt64:
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return func(i int) int { return cmp.Compare(c.Int64s()[i], n) }, nil
		}
		f, err := number(v)
		return func(i int) int { return cmp.Compare(float64(c.Int64s()[i]), f) }, err
	case sdk.TypeUint64:
		if n, err := strconv.ParseUint(v, 10, 64); err == nil {
			return func(i int) int { return cmp.Compare(c.Uint64s()[i], n) }, nil
		}
		f, err := number(v)
		return func(i int) int { return cmp.Compare(float64(c.Uint64s()[i]), f) }, err
	case sdk.TypeFloat64:
		f, err := number(v)
		return func(i int) int { return cmp.Compare(c.Float64s()[i], f) }, err
	case sdk.TypeInt128:
		f, ok := new(big.Float).SetString(v)
		if !ok {
			return nil, fmt.Errorf("%q is not a number", v)
		}
		return func(i int) int { return new(big.Float).SetInt(c.BigInts()[i]).Cmp(f) }, nil
	case sdk.TypeDecimal:
		d, err := sdk.ParseDecimal(v, c.Precision, c.Scale)
		if err != nil {
			return nil, fmt.Errorf("%q is not a DECIMAL(%d,%d): %v", v, c.Precision, c.Scale, err)
		}
		return func(i int) int { return compareDecimals(c.Decimals()[i], d) }, nil
	case sdk.TypeBool:
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("%q is not true or false", v)
		}
		return func(i int) int { return cmp.Compare(boolInt(c.Bools()[i]), boolInt(b)) }, nil
	case sdk.TypeTime, sdk.TypeDate, sdk.TypeTimestamp:
		in := time.UTC // dates and wall times are stored as UTC clock readings
		if c.Type == sdk.TypeTime && loc != nil {
			in = loc
		}
		t, err := parseTime(v, in)
		return func(i int) int { return c.Times()[i].Compare(t) }, err
	}
	return func(i int) int { return strings.Compare(c.Strings()[i], v) }, nil
}

func number(v string) (float64, error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", v)
	}
	return f, nil
}

var timeLayouts = []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"}

// parseTime reads RFC 3339 (its own offset), or a date or date and time in loc.
func parseTime(v string, loc *time.Location) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	for _, l := range timeLayouts {
		if t, err := time.ParseInLocation(l, v, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time: want 2024-03-10, 2024-03-10 14:30 (in %s) or RFC 3339", v, loc)
}

// columnSQL is a column filter as a DuckDB condition. Comparison values are
// string literals, which DuckDB casts to the column's type.
func columnSQL(f ColumnFilter) (string, error) {
	p, err := parseFilter(f.Expr)
	if err != nil {
		return "", fmt.Errorf("%w: filter on %s: %v", ErrBadQuery, f.Column, err)
	}
	col := quoteIdent(f.Column)
	switch p.op {
	case "null":
		return col + " IS NULL", nil
	case "notnull":
		return col + " IS NOT NULL", nil
	case "contains":
		return fmt.Sprintf("contains(lower(CAST(%s AS VARCHAR)), %s)", col, quoteLit(p.val)), nil
	}
	op := p.op
	if op == "!=" {
		op = "<>"
	}
	return fmt.Sprintf("%s %s %s", col, op, quoteLit(p.val)), nil
}

func quoteLit(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
