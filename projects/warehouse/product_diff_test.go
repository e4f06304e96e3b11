package warehouse

import (
	"context"
	"reflect"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
)

func customers(t testing.TB, rows ...[]any) *sdk.Table {
	return table(t, cols(sdk.Int64("customer_id"), sdk.String("name"), sdk.Float64("revenue")), rows...)
}

func diffOf(t *testing.T, wh *Warehouse, product, partition string, from, to int, opt DiffOptions) *PartitionDiff {
	t.Helper()
	d, err := wh.DiffVersions(context.Background(), product, partition, from, to, opt)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestDiffKinds(t *testing.T) {
	t.Parallel()
	wh := openTemp(t, Options{Retention: 10})
	keyed := DiffOptions{Keys: []string{"customer_id"}, Rows: 10}
	publish(t, wh, "m", "2024-01-01", customers(t, row(int64(1), "ann", 10.0), row(int64(2), "bob", 20.0), row(int64(3), "cy", 30.0)))
	// v2: bob's revenue changed, cy removed, dee added.
	publish(t, wh, "m", "2024-01-01", customers(t, row(int64(1), "ann", 10.0), row(int64(2), "bob", 25.0), row(int64(4), "dee", 40.0)))
	// v3: the same rows as v2 in another order.
	publish(t, wh, "m", "2024-01-01", customers(t, row(int64(4), "dee", 40.0), row(int64(1), "ann", 10.0), row(int64(2), "bob", 25.0)))

	t.Run("rows changed, added and removed, keyed", func(t *testing.T) {
		d := diffOf(t, wh, "m", "2024-01-01", 1, 2, keyed)
		if d.Unchanged || d.Counts != (RowCounts{Changed: 1, Added: 1, Removed: 1}) {
			t.Fatalf("counts %+v unchanged %v", d.Counts, d.Unchanged)
		}
		if !reflect.DeepEqual(d.RowColumns, []string{"customer_id", "name", "revenue"}) || !reflect.DeepEqual(d.Keys, []string{"customer_id"}) {
			t.Fatalf("columns %v keys %v", d.RowColumns, d.Keys)
		}
		want := []RowChange{
			{Kind: RowChanged, Partition: "2024-01-01", Old: []any{int64(2), "bob", 20.0}, New: []any{int64(2), "bob", 25.0}},
			{Kind: RowRemoved, Partition: "2024-01-01", Old: []any{int64(3), "cy", 30.0}},
			{Kind: RowAdded, Partition: "2024-01-01", New: []any{int64(4), "dee", 40.0}},
		}
		if !reflect.DeepEqual(d.Rows, want) {
			t.Fatalf("rows\n got %+v\nwant %+v", d.Rows, want)
		}
		rev := d.Columns[2]
		if rev.Name != "revenue" || !rev.Changed || *rev.Before.Sum != 60 || *rev.After.Sum != 75 || *rev.After.Max != "40.0" {
			t.Fatalf("revenue summary %+v before %+v after %+v", rev, rev.Before, rev.After)
		}
		if d.Columns[0].Before.Distinct != 3 || d.Columns[0].After.Distinct != 3 {
			t.Fatalf("customer_id distinct %+v", d.Columns[0])
		}
	})
	t.Run("whole rows without a key", func(t *testing.T) {
		d := diffOf(t, wh, "m", "2024-01-01", 1, 2, DiffOptions{Rows: 10})
		if d.Counts != (RowCounts{Added: 2, Removed: 2}) || len(d.Keys) != 0 || len(d.Rows) != 4 {
			t.Fatalf("counts %+v keys %v rows %d", d.Counts, d.Keys, len(d.Rows))
		}
	})
	t.Run("no change is found from the content hash", func(t *testing.T) {
		d := diffOf(t, wh, "m", "2024-01-01", 2, 3, keyed)
		if !d.Unchanged || d.Counts.Total() != 0 || len(d.Columns) != 0 {
			t.Fatalf("v2 -> v3 (same rows, other order): %+v", d)
		}
		// The hash alone decides: clear them and the rows are read instead.
		if _, err := wh.DB().Exec(`UPDATE _strata.versions SET content_hash = NULL`); err != nil {
			t.Fatal(err)
		}
		d = diffOf(t, wh, "m", "2024-01-01", 2, 3, keyed)
		if !d.Unchanged || d.Counts.Total() != 0 || len(d.Columns) != 3 {
			t.Fatalf("without hashes: %+v", d)
		}
	})
	t.Run("a new partition: every row added", func(t *testing.T) {
		d := diffOf(t, wh, "m", "2024-01-01", 0, 1, keyed)
		if d.Counts != (RowCounts{Added: 3}) || d.Unchanged || d.RowsBefore != 0 || d.RowsAfter != 3 {
			t.Fatalf("%+v", d)
		}
	})
	t.Run("unknown version names what exists", func(t *testing.T) {
		_, err := wh.DiffVersions(context.Background(), "m", "2024-01-01", 1, 9, keyed)
		assertErrContains(t, err, "no version 9 of partition 2024-01-01 (versions: 1, 2, 3; current 3)")
	})
}

func TestDiffSchemaChange(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	publish(t, wh, "m", "2024-01-01", customers(t, row(int64(1), "ann", 10.0), row(int64(2), "bob", 20.0)))
	// v2: name removed, revenue now int64, segment added.
	v2 := table(t, cols(sdk.Int64("customer_id"), sdk.Int64("revenue"), sdk.String("segment")),
		row(int64(1), int64(10), "gold"), row(int64(2), int64(20), "gold"))
	publish(t, wh, "m", "2024-01-01", v2)
	d := diffOf(t, wh, "m", "2024-01-01", 1, 2, DiffOptions{Keys: []string{"customer_id"}, Rows: 5})
	want := SchemaChange{
		Added:   []ColumnType{{"segment", "string"}},
		Removed: []ColumnType{{"name", "string"}},
		Retyped: []Retype{{"revenue", "float64", "int64"}},
	}
	if !reflect.DeepEqual(d.Schema, want) {
		t.Fatalf("schema\n got %+v\nwant %+v", d.Schema, want)
	}
	if d.Unchanged || d.Counts != (RowCounts{Changed: 2}) {
		t.Fatalf("counts %+v", d.Counts)
	}
	if !reflect.DeepEqual(d.RowColumns, []string{"customer_id", "revenue", "segment", "name"}) {
		t.Fatalf("row columns %v", d.RowColumns)
	}
	if got := d.Rows[0]; !reflect.DeepEqual(got.Old, []any{int64(1), 10.0, nil, "ann"}) || !reflect.DeepEqual(got.New, []any{int64(1), 10.0, "gold", nil}) {
		t.Fatalf("row 0: %+v", got)
	}
}

func TestDiffDuplicateKeysFallBackToWholeRows(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	publish(t, wh, "m", "2024-01-01", customers(t, row(int64(1), "ann", 10.0), row(int64(1), "ann2", 10.0)))
	publish(t, wh, "m", "2024-01-01", customers(t, row(int64(1), "ann", 10.0)))
	d := diffOf(t, wh, "m", "2024-01-01", 1, 2, DiffOptions{Keys: []string{"customer_id"}})
	if len(d.Keys) != 0 || d.KeyNote == "" || d.Counts != (RowCounts{Removed: 1}) {
		t.Fatalf("%+v", d)
	}
}

func TestDiffSet(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	ctx := context.Background()
	publish(t, wh, "m", "2024-01-01", customers(t, row(int64(1), "ann", 10.0)))
	publish(t, wh, "m", "2024-01-02", customers(t, row(int64(1), "ann", 10.0), row(int64(2), "bob", 5.0)))
	s1 := stage(t, wh, "m", "2024-01-01", customers(t, row(int64(1), "ann", 10.0)))                         // unchanged
	s2 := stage(t, wh, "m", "2024-01-02", customers(t, row(int64(1), "ann", 12.0)))                         // 1 changed, 1 removed
	s3 := stage(t, wh, "m", "2024-01-03", customers(t, row(int64(7), "gus", 1.0), row(int64(8), "h", 2.0))) // new
	d, err := wh.DiffSet(ctx, "m", []VersionPair{
		{"2024-01-01", 1, s1.Version}, {"2024-01-02", 1, s2.Version}, {"2024-01-03", 0, s3.Version},
	}, DiffOptions{Keys: []string{"customer_id"}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Changed != 1 || d.Unchanged != 1 || d.New != 1 || d.RowsBefore != 3 || d.RowsAfter != 4 {
		t.Fatalf("%+v", d)
	}
	if d.Counts != (RowCounts{Changed: 1, Removed: 1, Added: 2}) {
		t.Fatalf("counts %+v", d.Counts)
	}
	got := []string{d.Partitions[0].Status, d.Partitions[1].Status, d.Partitions[2].Status}
	if !reflect.DeepEqual(got, []string{PartitionUnchanged, PartitionChanged, PartitionNew}) || d.Partitions[1].Counts != (RowCounts{Changed: 1, Removed: 1}) {
		t.Fatalf("partitions %+v", d.Partitions)
	}
}

// A set diff whose sides are whole version numbers of their table (every v1
// against every v2) selects them by number; the counts match the exact
// partition diffs, keyed and whole-row.
func TestDiffSetWholeVersions(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	ctx := context.Background()
	var pairs []VersionPair
	for _, p := range []string{"2024-01-01", "2024-01-02", "2024-01-03"} {
		publish(t, wh, "m", p, customers(t, row(int64(1), "ann", 10.0), row(int64(2), "bob", 5.0), row(int64(2), "bob", 5.0)))
		s := stage(t, wh, "m", p, customers(t, row(int64(1), "ann", 11.0), row(int64(3), "cy", 5.0), row(int64(2), "bob", 5.0)))
		pairs = append(pairs, VersionPair{p, 1, s.Version})
	}
	// Unique keys on another product: changed, added and removed by key.
	for _, p := range []string{"2024-01-01", "2024-01-02", "2024-01-03"} {
		publish(t, wh, "u", p, customers(t, row(int64(1), "ann", 10.0), row(int64(2), "bob", 5.0)))
		stage(t, wh, "u", p, customers(t, row(int64(1), "ann", 11.0), row(int64(3), "cy", 5.0)))
	}
	du, err := wh.DiffSet(ctx, "u", pairs, DiffOptions{Keys: []string{"customer_id"}})
	if err != nil {
		t.Fatal(err)
	}
	if du.Counts != (RowCounts{Changed: 3, Added: 3, Removed: 3}) || du.KeyNote != "" {
		t.Fatalf("unique keys: %+v %q", du.Counts, du.KeyNote)
	}
	for _, keys := range [][]string{nil, {"name"}} {
		d, err := wh.DiffSet(ctx, "m", pairs, DiffOptions{Keys: keys})
		if err != nil {
			t.Fatal(err)
		}
		one := diffOf(t, wh, "m", "2024-01-02", 1, 2, DiffOptions{Keys: keys})
		if d.Changed != 3 || d.Partitions[1].Counts != one.Counts || d.Counts.Total() != 3*one.Counts.Total() || (d.KeyNote == "") != (one.KeyNote == "") {
			t.Fatalf("keys %v: set %+v (note %q), partition %+v (note %q)", keys, d.Partitions[1].Counts, d.KeyNote, one.Counts, one.KeyNote)
		}
	}
}

// The counts come from the same query as the first rows: they count the
// whole diff, not the rows returned.
func TestDiffCountsBeyondRowLimit(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	publish(t, wh, "m", "2024-01-01", customers(t, row(int64(1), "ann", 10.0), row(int64(2), "bob", 5.0), row(int64(3), "cy", 1.0)))
	publish(t, wh, "m", "2024-01-01", customers(t, row(int64(1), "ann", 11.0), row(int64(2), "bob", 6.0), row(int64(4), "di", 1.0)))
	keyed := diffOf(t, wh, "m", "2024-01-01", 1, 2, DiffOptions{Keys: []string{"customer_id"}, Rows: 1})
	if keyed.Counts != (RowCounts{Changed: 2, Added: 1, Removed: 1}) || len(keyed.Rows) != 1 {
		t.Fatalf("keyed: %+v, %d rows", keyed.Counts, len(keyed.Rows))
	}
	whole := diffOf(t, wh, "m", "2024-01-01", 1, 2, DiffOptions{Rows: 1})
	if whole.Counts != (RowCounts{Added: 3, Removed: 3}) || len(whole.Rows) != 1 {
		t.Fatalf("whole rows: %+v, %d rows", whole.Counts, len(whole.Rows))
	}
}
