package warehouse

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// fiveDays publishes 2024-03-10 .. 2024-03-14 out of order, two rows each
// (id = day*10 + 0/1), and republishes one day so it has version 2.
func fiveDays(t *testing.T) *Warehouse {
	wh := openTemp(t)
	for _, d := range []int{12, 10, 14, 11, 13} {
		key := fmt.Sprintf("2024-03-%02d", d)
		publish(t, wh, "m", key, ids(t, int64(d*10), int64(d*10+1)))
	}
	publish(t, wh, "m", "2024-03-12", ids(t, 120, 121, 122))
	return wh
}

func idsOf(tbl *sdk.Table) []int64 {
	c := tbl.Column("id")
	if c == nil {
		return nil
	}
	return append([]int64{}, c.Int64s()...)
}

func TestReadWindows(t *testing.T) {
	t.Parallel()
	wh := fiveDays(t)
	cases := []struct {
		name  string
		sel   Selection
		limit int
		want  []int64
		total int64 // rows in the whole selection, whatever the limit
	}{
		{"one", Selection{Partitions: []string{"2024-03-12"}}, 0, []int64{120, 121, 122}, 3},
		{"several keep partition order", Selection{Partitions: []string{"2024-03-14", "2024-03-10"}}, 0, []int64{100, 101, 140, 141}, 4},
		{"last 2", Selection{Last: 2}, 0, []int64{130, 131, 140, 141}, 4},
		{"last more than exist", Selection{Last: 50}, 0, []int64{100, 101, 110, 111, 120, 121, 122, 130, 131, 140, 141}, 11},
		{"range inclusive", Selection{From: day("2024-03-11"), To: day("2024-03-13")}, 0, []int64{110, 111, 120, 121, 122, 130, 131}, 7},
		{"range open end", Selection{From: day("2024-03-13")}, 0, []int64{130, 131, 140, 141}, 4},
		{"range matching nothing", Selection{From: day("2025-01-01")}, 0, []int64{}, 0},
		{"all with limit", Selection{}, 3, []int64{100, 101, 110}, 11},
		{"old version", Selection{Partitions: []string{"2024-03-12"}, Version: 1}, 1, []int64{120}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, total, err := wh.ReadCounted(context.Background(), "m", c.sel, c.limit)
			if err != nil {
				t.Fatal(err)
			}
			assertNames(t, got, "_partition", "id")
			if g := idsOf(got); fmt.Sprint(g) != fmt.Sprint(c.want) {
				t.Fatalf("ids %v, want %v", g, c.want)
			}
			if total != c.total {
				t.Fatalf("total %d, want %d", total, c.total)
			}
		})
	}
}

func TestReadKeepsInsertionOrder(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	vals := []int64{5, 3, 9, 1, 7, 2}
	publish(t, wh, "o", "2024-03-10", ids(t, vals...))
	if got := idsOf(read(t, wh, "o", Selection{})); fmt.Sprint(got) != fmt.Sprint(vals) {
		t.Fatalf("got %v, want insertion order %v", got, vals)
	}
}

func TestReadErrorsListWhatExists(t *testing.T) {
	t.Parallel()
	wh := fiveDays(t)
	ctx := context.Background()
	cases := []struct {
		product string
		sel     Selection
		want    string
	}{
		{"x", Selection{}, `unknown product "x" (products: m)`},
		{"m", Selection{Partitions: []string{"2024-03-20"}}, `product "m" has no partition 2024-03-20 (5 partitions: 2024-03-10, 2024-03-11, 2024-03-12, 2024-03-13, 2024-03-14)`},
		{"m", Selection{Partitions: []string{"2024-03-12"}, Version: 7}, `product "m" has no version 7 of partition 2024-03-12 (versions: 1, 2; current 2)`},
		{"m", Selection{Partitions: []string{"a", "b"}, Version: 1}, `version 1 needs exactly one partition`},
		{"m", Selection{Last: 2, From: day("2024-03-10")}, `not several`},
		{"m", Selection{From: day("2024-03-12"), To: day("2024-03-10")}, `is after to`},
	}
	for _, c := range cases {
		_, err := wh.Read(ctx, c.product, c.sel, 0)
		assertErrContains(t, err, c.want)
	}
	_, err := wh.Read(ctx, "x", Selection{}, 0)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown product error does not wrap ErrNotFound: %v", err)
	}
	_, err = wh.Partitions(ctx, "x")
	assertErrContains(t, err, `unknown product "x"`)
}

func TestSchemaChangeKeepsOldVersionsAndUnionsByName(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	ctx := context.Background()
	v1 := table(t, cols(sdk.Int64("id"), sdk.Int64("amount")), row(1, 10))
	v2 := table(t, cols(sdk.Int64("id"), sdk.Int64("amount"), sdk.String("note")), row(2, 20, "added"))
	v3 := table(t, cols(sdk.Int64("id"), sdk.String("amount")), row(3, "thirty"))
	publish(t, wh, "s", "2024-03-10", v1)
	publish(t, wh, "s", "2024-03-11", v1)
	publish(t, wh, "s", "2024-03-11", v2) // add a column
	publish(t, wh, "s", "2024-03-12", v3) // change a type, drop a column

	if n := scalar(t, wh, `SELECT count(*) FROM _strata.storage WHERE product = 's'`); n != 3 {
		t.Fatalf("%d storage tables, want one per schema (3)", n)
	}
	// Old versions read exactly as written.
	old := read(t, wh, "s", Selection{Partitions: []string{"2024-03-11"}, Version: 1})
	assertNames(t, old, "_partition", "id", "amount")
	assertRows(t, old, row("2024-03-11", int64(1), int64(10)))

	// A window over all three schemas: newest schema's columns first,
	// missing columns null, amount becomes string (int64 and string mixed).
	all := read(t, wh, "s", Selection{Last: 3})
	assertNames(t, all, "_partition", "id", "amount", "note")
	assertRows(t, all,
		row("2024-03-10", int64(1), "10", nil),
		row("2024-03-11", int64(2), "20", "added"),
		row("2024-03-12", int64(3), "thirty", nil))

	// A window over the first two schemas only keeps amount an integer.
	two := read(t, wh, "s", Selection{To: day("2024-03-11")})
	assertNames(t, two, "_partition", "id", "amount", "note")
	if two.Column("amount").Type != sdk.TypeInt64 {
		t.Fatalf("amount is %s over int64-only schemas", two.Column("amount").Type)
	}

	// The view unions the same way.
	assertRows(t, query(t, wh, `SELECT _partition, id, amount, note FROM s ORDER BY _partition`),
		row("2024-03-10", int64(1), "10", nil),
		row("2024-03-11", int64(2), "20", "added"),
		row("2024-03-12", int64(3), "thirty", nil))

	// int64 mixed with float64 widens to float64.
	publish(t, wh, "f", "2024-03-10", table(t, cols(sdk.Int64("x")), row(1)))
	publish(t, wh, "f", "2024-03-11", table(t, cols(sdk.Float64("x")), row(1.5)))
	assertRows(t, read(t, wh, "f", Selection{}), row("2024-03-10", 1.0), row("2024-03-11", 1.5))

	if _, err := wh.Partitions(ctx, "s"); err != nil {
		t.Fatal(err)
	}
}

func TestUnionSchema(t *testing.T) {
	t.Parallel()
	st := func(fields ...sdk.Field) storageTable { return storageTable{schema: fields} }
	got := unionSchema([]storageTable{
		st(sdk.Int64("ID"), sdk.Float64("v"), sdk.Time("t")),
		st(sdk.Int64("id"), sdk.Int64("v"), sdk.Bool("t"), sdk.String("old")),
	})
	want := "[ID int64 v float64 t string old string]"
	var gotS []string
	for _, c := range got {
		gotS = append(gotS, c.name, c.typ.String())
	}
	if fmt.Sprint(gotS) != want {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestViewShowsCurrentRowsOnly(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	ts := time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC)
	tbl := table(t, cols(sdk.Int64("id"), sdk.Time("at")), row(1, ts))
	publish(t, wh, "daily_customer_metrics", "2024-03-10", tbl)
	publish(t, wh, "daily_customer_metrics", "2024-03-10", table(t, cols(sdk.Int64("id"), sdk.Time("at")), row(2, ts)))
	v := query(t, wh, `SELECT * FROM daily_customer_metrics`)
	assertNames(t, v, "_partition", "id", "at")
	assertRows(t, v, row("2024-03-10", int64(2), ts))
	// A new schema creates a new table and the view follows.
	publish(t, wh, "daily_customer_metrics", "2024-03-11", table(t, cols(sdk.Int64("id"), sdk.String("segment")), row(3, "smb")))
	assertRows(t, query(t, wh, `SELECT _partition, id, segment, "at" FROM daily_customer_metrics ORDER BY _partition`),
		row("2024-03-10", int64(2), nil, ts),
		row("2024-03-11", int64(3), "smb", nil))
	if err := wh.Rollback(context.Background(), "daily_customer_metrics", "2024-03-10", 1); err != nil {
		t.Fatal(err)
	}
	assertRows(t, query(t, wh, `SELECT _partition, id FROM daily_customer_metrics ORDER BY _partition`),
		row("2024-03-10", int64(1)), row("2024-03-11", int64(3)))
}

// ReadVersions reads the versions it is given, not the current ones, in
// read order; one that retention removed since gives way to the current
// version, and it says which it read.
func TestReadVersionsReadsWhatItNames(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wh := openTemp(t, Options{Retention: 1})
	a1 := publish(t, wh, "p", "2024-03-01", ids(t, 1))
	b1 := publish(t, wh, "p", "2024-03-02", ids(t, 2))
	stage(t, wh, "p", "2024-03-01", ids(t, 3)) // newer, not current: a1 stays
	got, read, err := wh.ReadVersions(ctx, []VersionRef{b1.Ref(), a1.Ref()})
	if err != nil {
		t.Fatal(err)
	}
	assertRows(t, got, row("2024-03-02", int64(2)), row("2024-03-01", int64(1)))
	if !reflect.DeepEqual(read, []VersionRef{b1.Ref(), a1.Ref()}) {
		t.Fatalf("read %v, want %v", read, []VersionRef{b1.Ref(), a1.Ref()})
	}
	// A newer publish current over b1, then retention drops b1.
	b2 := publish(t, wh, "p", "2024-03-02", ids(t, 4))
	got, read, err = wh.ReadVersions(ctx, []VersionRef{b1.Ref()})
	if err != nil {
		t.Fatal(err)
	}
	assertRows(t, got, row("2024-03-02", int64(4)))
	if !reflect.DeepEqual(read, []VersionRef{b2.Ref()}) {
		t.Fatalf("read %v after retention removed %v, want %v", read, b1.Ref(), b2.Ref())
	}
}
