package warehouse

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
)

func TestDiffTable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wh := openTemp(t, Options{Retention: 10})
	v := publish(t, wh, "m", "2024-01-01", customers(t, row(int64(1), "ann", 10.0), row(int64(2), "bob", 20.0), row(int64(3), "cy", 30.0)))
	keyed := DiffOptions{Keys: []string{"customer_id"}, Rows: 10}

	t.Run("same rows in another order: unchanged from the hash", func(t *testing.T) {
		d, err := wh.DiffTable(ctx, "m", "2024-01-01", v.Version, customers(t, row(int64(3), "cy", 30.0), row(int64(1), "ann", 10.0), row(int64(2), "bob", 20.0)), keyed)
		if err != nil {
			t.Fatal(err)
		}
		if !d.Unchanged || d.From != v.Version || d.To != 0 || d.RowsBefore != 3 || d.RowsAfter != 3 {
			t.Fatalf("%+v", d)
		}
	})
	t.Run("rows changed, added and removed, keyed", func(t *testing.T) {
		d, err := wh.DiffTable(ctx, "m", "2024-01-01", v.Version, customers(t, row(int64(1), "ann", 10.0), row(int64(2), "bob", 25.0), row(int64(4), "dee", 40.0)), keyed)
		if err != nil {
			t.Fatal(err)
		}
		if d.Unchanged || d.Counts != (RowCounts{Changed: 1, Added: 1, Removed: 1}) {
			t.Fatalf("counts %+v unchanged %v", d.Counts, d.Unchanged)
		}
		want := []RowChange{
			{Kind: RowChanged, Partition: "2024-01-01", Old: []any{int64(2), "bob", 20.0}, New: []any{int64(2), "bob", 25.0}},
			{Kind: RowRemoved, Partition: "2024-01-01", Old: []any{int64(3), "cy", 30.0}},
			{Kind: RowAdded, Partition: "2024-01-01", New: []any{int64(4), "dee", 40.0}},
		}
		if !reflect.DeepEqual(d.Rows, want) {
			t.Fatalf("rows\n got %+v\nwant %+v", d.Rows, want)
		}
		if rev := d.Columns[2]; rev.Name != "revenue" || !rev.Changed || *rev.Before.Sum != 60 || *rev.After.Sum != 75 {
			t.Fatalf("revenue summary %+v", rev)
		}
	})
	t.Run("a column added", func(t *testing.T) {
		tbl := table(t, cols(sdk.Int64("customer_id"), sdk.String("name"), sdk.Float64("revenue"), sdk.Bool("vip")),
			row(int64(1), "ann", 10.0, true), row(int64(2), "bob", 20.0, false), row(int64(3), "cy", 30.0, false))
		d, err := wh.DiffTable(ctx, "m", "2024-01-01", v.Version, tbl, keyed)
		if err != nil {
			t.Fatal(err)
		}
		if d.Unchanged || d.Schema.Empty() || d.Counts.Changed != 3 {
			t.Fatalf("schema %+v counts %+v", d.Schema, d.Counts)
		}
	})
	t.Run("a version that is not kept is named", func(t *testing.T) {
		_, err := wh.DiffTable(ctx, "m", "2024-01-01", 7, customers(t), keyed)
		if err == nil || !strings.Contains(err.Error(), "no version 7") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("nothing is written", func(t *testing.T) {
		ps, err := wh.Partitions(ctx, "m")
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) != 1 || len(ps[0].Versions) != 1 {
			t.Fatalf("partitions after diffs: %+v", ps)
		}
	})
}
