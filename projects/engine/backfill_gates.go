package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// Review checks (the pipeline file's checks:) judge a staged backfill as a
// whole, and gate its promotion:
//
//   - total_within: the column's total over the staged versions stays within
//     the percent of its total over the versions they replace (partitions
//     new to the backfill count on the staged side only);
//   - max_row_loss_percent: no partition's staged version has fewer rows than
//     the current one by more than the percent;
//   - sql: a query returning the failing rows passes when it returns none.
//     It sees staged_<block> (the staged versions of the block's product)
//     and current_<block> (the versions current in the same partitions),
//     also under the product's name when it differs, beside the product
//     views of the warehouse.
//
// A check that cannot run (a missing column, SQL that does not bind) fails,
// with the error as its detail: a gate that could not look must not pass.

// evaluateGates runs every check of the pipeline over the review.
func (e *Engine) evaluateGates(ctx context.Context, pl *project.Pipeline, products []ProductReview, staged map[string][]stagedVersion) ([]GateResult, error) {
	out := make([]GateResult, 0, len(pl.Checks))
	if len(pl.Checks) == 0 {
		return out, nil
	}
	byProduct := map[string]*ProductReview{}
	for i := range products {
		byProduct[products[i].Product] = &products[i]
	}
	var rels []warehouse.Relation // built on the first SQL check
	for _, c := range pl.Checks {
		g := GateResult{Name: c.Name, Kind: c.Kind}
		product, _ := resolveProduct(pl, c.Product)
		if c.Product != "" {
			g.Product = product
		}
		switch c.Kind {
		case project.CheckRowLoss:
			rowLossGate(&g, c, byProduct[product])
		case project.CheckTotalWithin:
			e.totalGate(ctx, &g, c, byProduct[product])
		case project.CheckSQL:
			if rels == nil {
				rels = gateRelations(pl, staged)
			}
			e.sqlGate(ctx, &g, c, rels)
		default:
			g.Detail = fmt.Sprintf("unknown check kind %q", c.Kind)
		}
		out = append(out, g)
	}
	return out, nil
}

// gateRelations names the staged and current sides of every product.
func gateRelations(pl *project.Pipeline, staged map[string][]stagedVersion) []warehouse.Relation {
	var rels []warehouse.Relation
	for _, b := range pl.Blocks {
		product := ProductName(pl, b)
		var st, cur []warehouse.PartitionVersion
		for _, s := range staged[product] {
			st = append(st, warehouse.PartitionVersion{Partition: s.Partition, Version: s.Version})
			if s.Current > 0 {
				cur = append(cur, warehouse.PartitionVersion{Partition: s.Partition, Version: s.Current})
			}
		}
		if len(staged[product]) == 0 {
			continue
		}
		names := []string{b.ID}
		if product != b.ID {
			names = append(names, product)
		}
		for _, n := range names {
			rels = append(rels,
				warehouse.Relation{Name: "staged_" + n, Product: product, Versions: st},
				warehouse.Relation{Name: "current_" + n, Product: product, Versions: cur})
		}
	}
	return rels
}

func rowLossGate(g *GateResult, c project.ReviewCheck, pr *ProductReview) {
	if pr == nil {
		g.Passed = true
		g.Detail = "nothing staged for this product"
		return
	}
	worst := 0.0
	for _, p := range pr.Partitions {
		if p.RowsBefore == 0 {
			continue
		}
		loss := float64(p.RowsBefore-p.RowsAfter) / float64(p.RowsBefore) * 100
		worst = math.Max(worst, loss)
		if loss > c.Percent {
			g.Failures = append(g.Failures, fmt.Sprintf("%s: %d → %d rows (−%.1f%%)", p.Partition, p.RowsBefore, p.RowsAfter, loss))
		}
	}
	g.Passed = len(g.Failures) == 0
	if g.Passed {
		g.Detail = fmt.Sprintf("no partition lost more than %g%% of its rows (largest loss %.1f%%)", c.Percent, worst)
		return
	}
	g.Detail = fmt.Sprintf("%d partitions lost more than %g%% of their rows", len(g.Failures), c.Percent)
	if len(g.Failures) > 10 {
		g.Failures = g.Failures[:10]
	}
}

// totalGate compares the column's totals. The review's diff already summed
// the column over the partitions that differ, on both sides; partitions
// whose content is unchanged add the same amount to both, so only their
// current total is read (and not at all when every partition differs).
// Totals of exact types (integers, DECIMAL) are the diff's exact totals,
// added and compared as rationals: a total at exactly the allowed percent
// passes, where float64 arithmetic read 10.000000000000009%.
func (e *Engine) totalGate(ctx context.Context, g *GateResult, c project.ReviewCheck, pr *ProductReview) {
	if pr == nil {
		g.Passed = true
		g.Detail = "nothing staged for this product"
		return
	}
	before, after := new(big.Rat), new(big.Rat)
	found := false
	for _, col := range pr.Columns {
		if !strings.EqualFold(col.Name, c.Column) {
			continue
		}
		found = true
		if !warehouse.NumericTypeName(col.Type) {
			g.Detail = fmt.Sprintf("column %q is %s, not numeric: it has no total", c.Column, col.Type)
			return
		}
		for _, side := range []struct {
			s   *warehouse.ColumnSummary
			sum *big.Rat
		}{{col.Before, before}, {col.After, after}} {
			if err := addTotal(side.sum, side.s); err != nil {
				g.Detail = fmt.Sprintf("could not total column %q: %v", c.Column, err)
				return
			}
		}
	}
	var same []warehouse.PartitionVersion
	for _, p := range pr.Partitions {
		if p.Status == warehouse.PartitionUnchanged {
			same = append(same, warehouse.PartitionVersion{Partition: p.Partition, Version: p.From})
		}
	}
	if !found && len(same) == 0 {
		g.Detail = fmt.Sprintf("product %s has no column %q", pr.Product, c.Column)
		return
	}
	if len(same) > 0 {
		t, err := e.unchangedTotal(ctx, pr.Product, c.Column, same)
		if err != nil {
			g.Detail = fmt.Sprintf("could not total column %q: %v", c.Column, err)
			return
		}
		before.Add(before, t)
		after.Add(after, t)
	}
	// |after - before| <= percent% of |before|, in exact arithmetic.
	diff := new(big.Rat).Sub(after, before)
	if before.Sign() == 0 {
		g.Passed = after.Sign() == 0
		g.Detail = fmt.Sprintf("total %s: current %s, staged %s", c.Column, fmtRat(before), fmtRat(after))
		return
	}
	pct := new(big.Rat)
	if _, ok := pct.SetString(strconv.FormatFloat(c.Percent, 'f', -1, 64)); !ok {
		g.Detail = fmt.Sprintf("percent %v is not a number", c.Percent)
		return
	}
	allowed := new(big.Rat).Mul(new(big.Rat).Abs(before), pct)
	allowed.Quo(allowed, big.NewRat(100, 1))
	g.Passed = new(big.Rat).Abs(diff).Cmp(allowed) <= 0
	change, _ := new(big.Rat).Quo(new(big.Rat).Mul(diff, big.NewRat(100, 1)), new(big.Rat).Abs(before)).Float64()
	g.Detail = fmt.Sprintf("total %s: current %s, staged %s (%+.2f%%, allowed ±%g%%)", c.Column, fmtRat(before), fmtRat(after), change, c.Percent)
}

// addTotal adds one side's total to sum; a side without the column or
// with only NULLs adds nothing.
func addTotal(sum *big.Rat, s *warehouse.ColumnSummary) error {
	if s == nil {
		return nil
	}
	if s.TotalNote != "" {
		return errors.New(s.TotalNote)
	}
	if s.Total == nil {
		return nil
	}
	v, ok := new(big.Rat).SetString(*s.Total)
	if !ok {
		return fmt.Errorf("total %q is not a number", *s.Total)
	}
	sum.Add(sum, v)
	return nil
}

// unchangedTotal is the column's exact total over versions whose content
// the backfill did not change; it fails on a missing or non-numeric column.
func (e *Engine) unchangedTotal(ctx context.Context, product, column string, same []warehouse.PartitionVersion) (*big.Rat, error) {
	t, _, err := e.wh.Total(ctx, product, column, same)
	return t, err
}

// fmtRat prints a total exactly when it has a finite decimal form of at
// most 38 digits after the point, else to 10 significant digits.
func fmtRat(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	if n, exact := r.FloatPrec(); exact && n <= 38 {
		return r.FloatString(n)
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', 10, 64)
}

func (e *Engine) sqlGate(ctx context.Context, g *GateResult, c project.ReviewCheck, rels []warehouse.Relation) {
	t, n, err := e.wh.QueryOver(ctx, rels, c.SQL, 5)
	if err != nil {
		g.Detail = fmt.Sprintf("query failed: %v", err)
		return
	}
	g.Passed = n == 0
	if g.Passed {
		g.Detail = "the query returned no rows"
		return
	}
	g.Detail = fmt.Sprintf("the query returned %d failing rows", n)
	names := make([]string, 0, len(t.Schema()))
	for _, f := range t.Schema() {
		names = append(names, f.Name)
	}
	for i := 0; i < t.Len(); i++ {
		parts := make([]string, len(names))
		for j, v := range t.Row(i) {
			parts[j] = fmt.Sprintf("%s=%v", names[j], v)
		}
		g.Failures = append(g.Failures, strings.Join(parts, " "))
	}
}
