package engine

import (
	"context"
	"fmt"
	"strconv"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/project"
)

// runDynamic runs a dynamic block, then one child of every block in its
// fan-out region per output row, through a window of FanOutWindow children
// in flight. Each child runs the region's blocks in order; a failed child
// skips only its own remaining blocks, never its siblings. The region's
// outputs are the union of the children's, which is what a reduce receives.
func (r *runner) runDynamic(ctx context.Context, g *group, d *node, nodes map[string]*node) {
	var region []*project.Block
	for _, b := range g.blocks {
		if b.FanOut == d.b.ID {
			region = append(region, b)
		}
	}
	d.outcome, d.out = r.execute(ctx, g, d.b, nil, localOutputs(nodes))
	if d.outcome.State != StateSucceeded || len(region) == 0 {
		return
	}
	items := d.out.Len()
	outs := make([][]*sdk.Table, len(region)) // [region block][child]
	for i := range outs {
		outs[i] = make([]*sdk.Table, items)
	}
	children := make([][]*BlockOutcome, len(region))
	for i := range children {
		children[i] = make([]*BlockOutcome, items)
	}
	win := newWindow(r.e.FanOutWindow, 0)
	for i := 0; i < items; i++ {
		i := i
		ok := win.Go(ctx, false, func() {
			item := itemOf(d.out, i)
			mine := map[string]*sdk.Table{d.b.ID: rowTable(d.out, i)}
			failed := ""
			for j, b := range region {
				if failed != "" {
					children[j][i] = &BlockOutcome{Block: b.ID, Child: item.Key, Partition: g.part.Key, State: StateSkipped, Error: "skipped: " + failed + " failed in this child"}
					continue
				}
				for _, u := range b.Upstream {
					if n := nodes[u]; n != nil && mine[u] == nil {
						<-n.done
					}
				}
				if t := r.reused[childKey{b.ID, item.Key}]; t != nil {
					children[j][i] = &BlockOutcome{Block: b.ID, Child: item.Key, Partition: g.part.Key, State: StateSucceeded, Rows: t.Len(), Log: "output of an earlier attempt: not run again"}
					mine[b.ID], outs[j][i] = t, t
					continue
				}
				o, out := r.execute(ctx, g, b, item, func(u string) *sdk.Table {
					if t := mine[u]; t != nil {
						return t
					}
					return localOutputs(nodes)(u)
				})
				children[j][i] = o
				if o.State != StateSucceeded {
					failed = b.ID + "[" + item.Key + "]"
					continue
				}
				mine[b.ID] = out
				outs[j][i] = out
			}
		}, nil)
		if !ok {
			break
		}
	}
	win.Wait()
	for j, b := range region {
		n := nodes[b.ID]
		agg := &BlockOutcome{Block: b.ID, Partition: g.part.Key, State: StateSucceeded}
		bad := 0
		var ok []*sdk.Table
		for i := 0; i < items; i++ {
			c := children[j][i]
			if c == nil {
				c = &BlockOutcome{Block: b.ID, Child: itemOf(d.out, i).Key, Partition: g.part.Key, State: StateCancelled, Error: "cancelled before it started"}
			}
			n.children = append(n.children, c)
			agg.Duration += c.Duration
			if c.State != StateSucceeded {
				bad++
				continue
			}
			agg.Rows += c.Rows
			if outs[j][i] != nil {
				ok = append(ok, outs[j][i])
			}
		}
		agg.DurationMS = ms(agg.Duration)
		if bad > 0 {
			agg.State = StateFailed
			agg.Error = fmt.Sprintf("%d of %d children failed", bad, items)
			n.outcome = agg
			continue
		}
		union, err := unionTables(ok)
		if err != nil {
			agg.State, agg.Error = StateFailed, "union of children: "+err.Error()
		}
		n.outcome, n.out = agg, union
	}
}

// itemOf names a dynamic row: its "key" column, else its index.
func itemOf(t *sdk.Table, i int) *sdk.Item {
	it := &sdk.Item{Index: i, Key: strconv.Itoa(i), Values: map[string]any{}}
	for _, c := range t.Columns() {
		it.Values[c.Name] = c.Value(i)
	}
	if c := t.Column("key"); c != nil && !c.IsNull(i) {
		it.Key = fmt.Sprint(c.Value(i))
	}
	return it
}

// rowTable is row i of t as a one-row table: what a child receives from its dynamic parent.
func rowTable(t *sdk.Table, i int) *sdk.Table {
	out := sdk.NewTable(t.Schema()...)
	out.Append(t.Row(i)...)
	return out
}

// unionTables concatenates tables by column name; a column missing from one
// table is null there. Columns must agree on type.
func unionTables(ts []*sdk.Table) (*sdk.Table, error) {
	if len(ts) == 0 {
		return sdk.NewTable(), nil
	}
	var fields []sdk.Field
	seen := map[string]sdk.Type{}
	for _, t := range ts {
		for _, f := range t.Schema() {
			if typ, ok := seen[f.Name]; ok {
				if typ != f.Type {
					return nil, fmt.Errorf("column %q is %s in one output and %s in another", f.Name, typ, f.Type)
				}
				continue
			}
			seen[f.Name] = f.Type
			fields = append(fields, f)
		}
	}
	out := sdk.NewTable(fields...)
	for _, c := range out.Columns() {
		n := 0
		for _, t := range ts {
			n += t.Len()
		}
		c.Reserve(n)
	}
	row := make([]any, len(fields))
	for _, t := range ts {
		cols := make([]*sdk.Column, len(fields))
		for j, f := range fields {
			cols[j] = t.Column(f.Name)
		}
		for i := 0; i < t.Len(); i++ {
			for j, c := range cols {
				if c == nil {
					row[j] = nil
				} else {
					row[j] = c.Value(i)
				}
			}
			out.Append(row...)
		}
	}
	return out, out.Err()
}
