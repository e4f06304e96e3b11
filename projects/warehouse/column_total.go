package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

// A numeric column's total is exact for exact types (integers, DECIMAL):
// DuckDB sums BIGINT into HUGEINT and DECIMAL(p,s) into DECIMAL(38,s),
// exactly. A wide column (HUGEINT, DECIMAL wider than 18 digits) could
// overflow 38 digits, which fails the whole query, so it is summed in three
// parts that cannot overflow (the integer part's high and low 18 digits, and
// the fraction) and the parts are added here.

// Numeric reports whether a column of type t has a total: integers,
// DECIMAL and DOUBLE.
func Numeric(t sdk.Type) bool {
	switch t {
	case sdk.TypeInt64, sdk.TypeUint64, sdk.TypeInt128, sdk.TypeDecimal, sdk.TypeFloat64:
		return true
	}
	return false
}

// NumericTypeName reports whether a column type as ColumnChange.Type names
// it is numeric.
func NumericTypeName(name string) bool {
	for _, t := range []sdk.Type{sdk.TypeInt64, sdk.TypeUint64, sdk.TypeInt128, sdk.TypeDecimal, sdk.TypeFloat64} {
		if t.String() == name {
			return true
		}
	}
	return false
}

func wide(f sdk.Field) bool {
	return f.Type == sdk.TypeInt128 || (f.Type == sdk.TypeDecimal && f.Precision > 18)
}

// exactSumSQL selects the parts of the exact total as text.
func exactSumSQL(id string, f sdk.Field) []string {
	if !wide(f) {
		return []string{fmt.Sprintf("sum(%s)::VARCHAR", id)}
	}
	ip := fmt.Sprintf("trunc(%s)::HUGEINT", id)
	return []string{
		fmt.Sprintf("sum(%s // 1000000000000000000)::VARCHAR", ip),
		fmt.Sprintf("sum(%s %% 1000000000000000000)::VARCHAR", ip),
		fmt.Sprintf("sum(%[1]s - trunc(%[1]s))::VARCHAR", id),
	}
}

// addParts adds what exactSumSQL selected: nil when every value is NULL.
func addParts(parts []sql.NullString) (*big.Rat, error) {
	if len(parts) == 0 || !parts[0].Valid {
		return nil, nil
	}
	scale := []*big.Rat{big.NewRat(1, 1)}
	if len(parts) == 3 {
		e18 := new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)
		scale = []*big.Rat{new(big.Rat).SetInt(e18), big.NewRat(1, 1), big.NewRat(1, 1)}
	}
	total := new(big.Rat)
	for i, p := range parts {
		v, ok := new(big.Rat).SetString(p.String)
		if !ok {
			return nil, fmt.Errorf("total %q is not a number", p.String)
		}
		total.Add(total, v.Mul(v, scale[i]))
	}
	return total, nil
}

// totals is what summarize reads for a numeric column: for DOUBLE its sum
// and mean, for exact types the count of values and the parts of the exact
// total, from which the sum and mean are derived (no DOUBLE aggregate: a
// review summarizes every numeric column of every product, and two
// aggregates per column are what the float-only statistics cost before).
type totals struct {
	dbl, mean sql.NullFloat64
	n         int64
	parts     []sql.NullString
}

func newTotals(id string, f sdk.Field) (*totals, string) {
	t := &totals{}
	if f.Type == sdk.TypeFloat64 {
		return t, fmt.Sprintf("sum(%[1]s)::DOUBLE, avg(%[1]s)::DOUBLE", id)
	}
	exact := exactSumSQL(id, f)
	t.parts = make([]sql.NullString, len(exact))
	return t, fmt.Sprintf("count(%s), ", id) + strings.Join(exact, ", ")
}

func (t *totals) ptrs() []any {
	if t.parts == nil {
		return []any{&t.dbl, &t.mean}
	}
	out := []any{&t.n}
	for i := range t.parts {
		out = append(out, &t.parts[i])
	}
	return out
}

// fill sets a summary's sum, mean and total. For exact types the sum and
// mean are the nearest float64 of the exact values (the DOUBLE sum of
// 100.6 and -95.0 is 5.599999999999994, the total 5.6).
func (t *totals) fill(s *ColumnSummary) {
	if t.parts == nil {
		s.Sum, s.Mean = nullFloat(t.dbl), nullFloat(t.mean)
		if t.dbl.Valid {
			text := strconv.FormatFloat(t.dbl.Float64, 'g', -1, 64)
			s.Total = &text
		}
		return
	}
	exact, err := addParts(t.parts)
	if err != nil {
		s.TotalNote = err.Error()
		return
	}
	if exact == nil {
		return
	}
	text := ratText(exact)
	approx, _ := exact.Float64()
	s.Total, s.Sum = &text, &approx
	if t.n > 0 {
		mean, _ := new(big.Rat).Quo(exact, big.NewRat(t.n, 1)).Float64()
		s.Mean = &mean
	}
}

// ratText is an exact total as decimal text (totals of decimals have the
// column's scale at most, so the expansion is finite).
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	n, _ := r.FloatPrec()
	return r.FloatString(n)
}

// Total is the exact total of a numeric column over product versions, and
// the column's type. It fails, saying so, on a missing or non-numeric column.
func (w *Warehouse) Total(ctx context.Context, product, column string, versions []PartitionVersion) (*big.Rat, sdk.Field, error) {
	rels := []Relation{{Name: "versions", Product: product, Versions: versions}}
	t, _, err := w.QueryOver(ctx, rels, `SELECT * FROM versions LIMIT 0`, 1)
	if err != nil {
		return nil, sdk.Field{}, err
	}
	var f *sdk.Field
	for i, c := range t.Schema() {
		if strings.EqualFold(c.Name, column) {
			f = &t.Schema()[i]
		}
	}
	switch {
	case f == nil:
		return nil, sdk.Field{}, fmt.Errorf("product %s has no column %q", product, column)
	case !Numeric(f.Type):
		return nil, *f, fmt.Errorf("column %q is %s, not numeric: it has no total", column, f.Type)
	}
	exact := exactSumSQL(quoteIdent(f.Name), *f)
	if f.Type == sdk.TypeFloat64 {
		exact = []string{fmt.Sprintf("sum(%s)::VARCHAR", quoteIdent(f.Name))}
	}
	res, _, err := w.QueryOver(ctx, rels, `SELECT `+strings.Join(exact, ", ")+` FROM versions`, 1)
	if err != nil {
		return nil, *f, err
	}
	parts := make([]sql.NullString, len(exact))
	if res.Len() == 1 {
		for i, v := range res.Row(0) {
			if s, ok := v.(string); ok {
				parts[i] = sql.NullString{String: s, Valid: true}
			}
		}
	}
	sum, err := addParts(parts)
	if sum == nil && err == nil {
		sum = new(big.Rat)
	}
	return sum, *f, err
}
