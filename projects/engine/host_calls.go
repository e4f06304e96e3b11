package engine

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// HostCall answers ctx.Query, ctx.Product and ctx.Secret for a running block.
func (e *Engine) HostCall(ctx context.Context, c *protocol.HostCall) (*sdk.Table, error) {
	switch c.Method {
	case "query":
		return e.wh.Query(ctx, c.SQL, c.Args...)
	case "product":
		t, _, err := e.readProduct(ctx, c, "")
		return t, err
	case protocol.MethodExportBegin, protocol.MethodExportDone:
		return e.exportCall(ctx, c)
	case "secret":
		v, err := e.secrets.Resolve(c.Secret)
		if err != nil {
			return nil, err
		}
		return protocol.SecretTable(v), nil
	}
	return nil, fmt.Errorf("unknown host call %q", c.Method)
}

// readProduct answers ctx.Product with the versions it read: the current
// ones, or with pinned (RunOptions.PreferPinned) the ones that owner
// pinned where it pinned any, as a run's upstream inputs read.
func (e *Engine) readProduct(ctx context.Context, c *protocol.HostCall, pinned string) (*sdk.Table, []warehouse.VersionRef, error) {
	sel, err := e.ResolveWindow(c.Product, c.Window)
	if err != nil {
		return nil, nil, err
	}
	sel.PreferPinned = pinned
	return e.wh.ReadSelected(ctx, c.Product, sel)
}

// ResolveWindow turns a window of partition keys into a warehouse selection,
// using the partitioning of the block that writes the product.
func (e *Engine) ResolveWindow(product string, w sdk.Window) (warehouse.Selection, error) {
	spec, err := e.productSpec(product)
	if err != nil {
		return warehouse.Selection{}, err
	}
	switch {
	case w.Partition != "":
		if _, err := spec.Parse(w.Partition); err != nil {
			return warehouse.Selection{}, err
		}
		return warehouse.Selection{Partitions: []string{w.Partition}}, nil
	case w.Last > 0:
		return warehouse.Selection{Last: w.Last}, nil
	case w.From != "" || w.To != "":
		sel := warehouse.Selection{}
		if spec.Dimensional() {
			// A range of a product with value dimensions is a range of
			// its time keys: every cell of those days.
			spec = spec.TimeOnly()
		}
		if w.From != "" {
			p, err := spec.Parse(w.From)
			if err != nil {
				return sel, fmt.Errorf("from: %w", err)
			}
			sel.From = p.Start
		}
		if w.To != "" {
			p, err := spec.Parse(w.To)
			if err != nil {
				return sel, fmt.Errorf("to: %w", err)
			}
			sel.To = p.Start
		}
		if !sel.From.IsZero() && !sel.To.IsZero() && sel.From.After(sel.To) {
			return sel, fmt.Errorf("window: from %s is after to %s (both are included; swap them)", w.From, w.To)
		}
		return sel, nil
	case w.Period != "":
		p, err := parsePeriod(w.Period, spec)
		if err != nil {
			return warehouse.Selection{}, err
		}
		return warehouse.Selection{From: p.Start, To: p.End.Add(-time.Nanosecond)}, nil
	}
	return warehouse.Selection{}, nil
}

// parsePeriod reads a calendar period of any interval ("2024", "2024-Q1",
// "2024-03", "2024-W10", "2024-03-10") in the product's zone.
func parsePeriod(s string, base partitions.Spec) (partitions.Partition, error) {
	for _, iv := range []partitions.Interval{partitions.Year, partitions.Quarter, partitions.Month, partitions.Week, partitions.Day, partitions.Hour} {
		spec := partitions.Spec{Interval: iv, Zone: base.Zone, WeekStart: base.WeekStart}
		if p, err := spec.Parse(s); err == nil {
			return p, nil
		}
	}
	return partitions.Partition{}, fmt.Errorf("period %q: want a year (2024), quarter (2024-Q1), month (2024-03), week (2024-W10) or day (2024-03-10)", s)
}

// productSpec finds how a product is partitioned.
func (e *Engine) productSpec(product string) (partitions.Spec, error) {
	proj := e.project()
	for _, id := range proj.PipelineIDs() {
		pl := proj.Pipelines[id]
		for _, b := range pl.Blocks {
			if ProductName(pl, b) == product {
				return SpecOf(b.Partitions)
			}
		}
	}
	var names []string
	for _, id := range proj.PipelineIDs() {
		for _, b := range proj.Pipelines[id].Blocks {
			names = append(names, ProductName(proj.Pipelines[id], b))
		}
	}
	return partitions.Spec{}, fmt.Errorf("unknown product %q (products: %s)", product, strings.Join(names, ", "))
}

// currentVersions returns the current version of each of keys that exists.
func (e *Engine) currentVersions(ctx context.Context, product string, keys []string) (map[string]int, error) {
	return e.versionsOf(ctx, `SELECT partition, version FROM _strata.current WHERE product = ? AND partition IN (%s)`, []any{product}, keys)
}

// versionsByRun returns, per partition, the newest version of product
// written by a run whose id starts with prefix.
func (e *Engine) versionsByRun(ctx context.Context, product string, keys []string, prefix string) (map[string]int, error) {
	return e.versionsOf(ctx, `SELECT partition, max(version) FROM _strata.versions
		WHERE product = ? AND starts_with(run_id, ?) AND partition IN (%s) GROUP BY partition`, []any{product, prefix}, keys)
}

// versionsPinned finds, per partition of keys, the newest version of
// product owner pinned (an environment's: RunOptions.PreferPinned).
func (e *Engine) versionsPinned(ctx context.Context, product string, keys []string, owner string) (map[string]int, error) {
	return e.versionsOf(ctx, `SELECT partition, max(version) FROM _strata.pins
		WHERE owner = ? AND product = ? AND partition IN (%s) GROUP BY partition`, []any{owner, product}, keys)
}

// versionsOf runs a (partition, version) query whose %s is the list of keys.
func (e *Engine) versionsOf(ctx context.Context, query string, args []any, keys []string) (map[string]int, error) {
	out := map[string]int{}
	if len(keys) == 0 {
		return out, nil
	}
	for _, k := range keys {
		args = append(args, k)
	}
	ph := strings.TrimSuffix(strings.Repeat("?,", len(keys)), ",")
	rows, err := e.wh.DB().QueryContext(ctx, fmt.Sprintf(query, ph), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var v int
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, rows.Err()
}

// publishedByRun reports whether run already published every product of
// these blocks (a resumed run must not publish them again), and whether
// each is current or was current and has been superseded since: a version
// newer than the run's is current (another run published after it). A
// version that is neither was kept aside by a compare-and-set that found
// newer work.
func (e *Engine) publishedByRun(ctx context.Context, runID string, pl *project.Pipeline, blocks []*project.Block) (done, current bool, err error) {
	want := 0
	var args []any
	// Any attempt of the partition (backfill_attempt.go): an earlier one
	// that published is never published again.
	slot, _ := slotOf(runID)
	args = append(args, slot, slot+attemptSep)
	for _, b := range blocks {
		if b.Entry == project.EntryExport {
			continue
		}
		want++
		args = append(args, ProductName(pl, b))
	}
	if want == 0 {
		return false, false, nil
	}
	ph := strings.TrimSuffix(strings.Repeat("?,", want), ",")
	var n, cur int
	// Superseded, not kept aside: no other run's version newer than the
	// one it planned against existed when it was written (that one would
	// have been current then, and the compare-and-set would have kept it
	// aside). When unsure, it counts as kept aside: a conflict to resolve.
	err = e.wh.DB().QueryRowContext(ctx, `SELECT count(DISTINCT v.product),
			count(DISTINCT v.product) FILTER (WHERE v.is_current OR (n.created_at > v.created_at AND NOT EXISTS (
				SELECT 1 FROM _strata.versions x WHERE x.product = v.product AND x.partition = v.partition AND x.run_id <> v.run_id
				AND x.created_at < v.created_at AND x.version > coalesce(v.based_on, 0))))
		FROM _strata.versions v
		LEFT JOIN _strata.current c ON c.product = v.product AND c.partition = v.partition
		LEFT JOIN _strata.versions n ON n.product = c.product AND n.partition = c.partition AND n.version = c.version
		WHERE (v.run_id = ? OR starts_with(v.run_id, ?)) AND v.product IN (`+ph+`)`, args...).Scan(&n, &cur)
	return n == want, cur == want, err
}
