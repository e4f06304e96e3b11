package warehouse

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// A SQL block reads its inputs by upstream id, straight from the Go tables:
// every column type and NULLs come through, an input can be named twice, one
// without columns still is a relation, an input shadows a product of the
// same name, and the next block on the pooled connection sees its own
// inputs, not the last one's.
func TestRunSQLReadsInputsByName(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wh := openTemp(t)
	publish(t, wh, "orders", "2024-03-01", ids(t, 100, 200, 300)) // shadowed below
	at := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	orders := table(t, cols(sdk.Int64("id"), sdk.Float64("amount"), sdk.String("channel"), sdk.Bool("sub"), sdk.Time("at")),
		row(int64(1), 2.5, "web", true, at),
		row(int64(2), 4.0, nil, false, at.Add(time.Hour)),
		row(int64(3), nil, "app", nil, at.Add(2*time.Hour)))
	empty := sdk.NewTable()
	got, err := wh.RunSQL(ctx, `-- the partition's orders
		SELECT count(*) AS n, sum(o.amount) AS total, count(o.channel) AS channels, count_if(o.sub) AS subs,
		       max(o.at) AS last, (SELECT count(*) FROM orders) AS again, (SELECT count(*) FROM nothing) AS none,
		       $partition_key AS day
		FROM orders o WHERE o.at >= $partition_start`,
		map[string]*sdk.Table{"orders": orders, "nothing": empty},
		map[string]any{"partition_key": "2024-03-01", "partition_start": at, "partition_end": at.AddDate(0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	if got.Len() != 1 {
		t.Fatalf("%d rows, want 1", got.Len())
	}
	check := func(name string, want any) {
		t.Helper()
		if v := got.Column(name).Value(0); v != want {
			t.Errorf("%s = %v (%T), want %v", name, v, v, want)
		}
	}
	check("n", int64(3))
	check("total", 6.5)
	check("channels", int64(2))
	check("subs", int64(1))
	check("again", int64(3))
	check("none", int64(0))
	check("day", "2024-03-01")
	if last := got.Column("last").Times()[0]; !last.Equal(at.Add(2 * time.Hour)) {
		t.Errorf("last = %v, want %v", last, at.Add(2*time.Hour))
	}

	// Same names, other inputs: nothing of the last block is left behind.
	again, err := wh.RunSQL(ctx, `SELECT sum(id) AS s FROM orders`, map[string]*sdk.Table{"orders": ids(t, 7, 8)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := again.Column("s").Value(0); s != float64(15) && s != int64(15) {
		t.Fatalf("sum = %v (%T), want 15 from this block's input", s, s)
	}
	if _, err := wh.RunSQL(ctx, `SELECT * FROM nothing`, nil, nil); err == nil {
		t.Fatal("an input of an earlier block is still visible")
	}
}

// A SQL block's upstream read in place is the relation the Go round trip
// (Read, then a temporary table) gave it: the same columns, types, casts
// across storage tables, NULLs and row order; int128 columns narrowed and a
// product without columns as Read has them. It reads the versions asked
// for, not the current ones.
func TestRunSQLReadsVersionsInPlaceAsReadDoes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wh := openTemp(t)
	at := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	first := table(t, cols(sdk.Int64("id"), sdk.Float64("amount"), sdk.String("channel"), sdk.Bool("sub"), sdk.Time("at"),
		sdk.Date("d"), sdk.Timestamp("ts"), sdk.Uint64("u"), sdk.Decimal("price", 10, 2), sdk.Int64("n")),
		row(int64(3), 2.5, "web", true, at, at, at, uint64(7), "1.25", int64(1)),
		row(int64(1), nil, nil, nil, nil, nil, nil, nil, nil, nil),
		row(int64(2), 4.0, "app", false, at.Add(time.Hour), at, at, uint64(9), "2.50", int64(2)))
	// The second day's schema differs (n becomes a float, a column is
	// added), so its rows live in another storage table and n is cast.
	second := table(t, cols(sdk.Int64("id"), sdk.Float64("n"), sdk.String("extra")),
		row(int64(9), 1.5, "x"), row(int64(8), nil, nil))
	v1 := publish(t, wh, "up", "2024-03-01", first)
	v2 := publish(t, wh, "up", "2024-03-02", second)
	refs := []VersionRef{v1.Ref(), v2.Ref()}
	const q = `SELECT *, typeof(amount) AS t_amount, typeof("at") AS t_at, typeof(price) AS t_price, typeof(n) AS t_n FROM up`
	inPlace := func() *sdk.Table {
		t.Helper()
		got, read, err := wh.RunSQLInputs(ctx, q, []SQLInput{{Name: "up", Read: refs}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(read) != 1 || len(read[0]) != 2 || read[0][0] != refs[0] || read[0][1] != refs[1] {
			t.Fatalf("read %v, want %v", read, refs)
		}
		return got
	}
	got := inPlace()
	// What the Go round trip gives for the same versions (current ones).
	in := withoutPartition(read(t, wh, "up", Selection{Partitions: []string{"2024-03-01", "2024-03-02"}}))
	want, err := wh.RunSQL(ctx, q, map[string]*sdk.Table{"up": in}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(got.Schema()), fmt.Sprint(want.Schema()); g != w {
		t.Errorf("schema in place %s\n  via Go %s", g, w)
	}
	if g, w := fmt.Sprint(rowsOf(got)), fmt.Sprint(rowsOf(want)); g != w {
		t.Errorf("rows in place %s\n  via Go %s", g, w)
	}
	if got.Len() != 5 {
		t.Errorf("%d rows, want 5", got.Len())
	}
	// A newer version of the second day is current now; the versions asked
	// for are still what is read.
	publish(t, wh, "up", "2024-03-02", ids(t, 100))
	if g, w := fmt.Sprint(rowsOf(inPlace())), fmt.Sprint(rowsOf(got)); g != w {
		t.Errorf("after a newer version: %s\n  want %s", g, w)
	}

	// int128 (narrowed when it fits) and a product without columns.
	big := table(t, cols(sdk.Int128("h")), row(int64(5)))
	hv := publish(t, wh, "big", "2024-03-01", big)
	nv := publish(t, wh, "none", "2024-03-01", sdk.NewTable())
	for _, c := range []struct {
		ref         VersionRef
		query, want string
	}{
		{hv.Ref(), `SELECT *, typeof(h) AS t FROM rel`, "[{h int64 0 0} {t string 0 0}] [[5 BIGINT]]"},
		{nv.Ref(), `SELECT * FROM rel`, "[{_empty bool 0 0}] []"},
	} {
		got, _, err := wh.RunSQLInputs(ctx, c.query, []SQLInput{{Name: "rel", Read: []VersionRef{c.ref}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s := fmt.Sprint(got.Schema(), rowsOf(got)); s != c.want {
			t.Errorf("%s: schema %s, want %s", c.ref, s, c.want)
		}
	}
}

// A version retention removed after the caller chose it gives way to the
// partition's current version, and RunSQLInputs says so: the caller
// records what the query read.
func TestRunSQLInPlaceSaysWhichVersionItRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wh := openTemp(t, Options{Retention: 1})
	old := publish(t, wh, "up", "2024-03-01", ids(t, 1, 2))
	now := publish(t, wh, "up", "2024-03-01", ids(t, 5))
	if vs, _ := versionsOf(t, wh, "up", "2024-03-01"); len(vs) != 1 {
		t.Fatalf("versions %v: retention 1 should have removed version %d", vs, old.Version)
	}
	got, read, err := wh.RunSQLInputs(ctx, `SELECT sum(id) AS s FROM up`, []SQLInput{{Name: "up", Read: []VersionRef{old.Ref()}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if read[0][0] != now.Ref() {
		t.Errorf("read %v, want %v", read[0], now.Ref())
	}
	if s := got.Column("s").Value(0); s != int64(5) {
		t.Errorf("sum %v, want 5 (the current version's rows)", s)
	}
	if _, _, err := wh.RunSQLInputs(ctx, `SELECT * FROM up`, []SQLInput{{Name: "up", Read: []VersionRef{{Product: "up", Partition: "2024-03-09", Version: 1}}}}, nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("a partition without versions: %v, want ErrNotFound", err)
	}
}

// A query that starts with SELECT or FROM reads its inputs in memory as
// CTEs over strata_rows, one statement; one that starts with WITH, as
// temporary tables. Both see the same relation: every type, NULLs, order.
// A query the CTEs do not suit (temp.<input>) or that fails runs the
// temporary-table way, so it still runs and its error reads as before.
func TestRunSQLInputsInMemorySameEitherWay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wh := openTemp(t) // nothing published: strata_rows is registered on demand
	at := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	h := new(big.Int).Lsh(big.NewInt(1), 100)
	up := table(t, cols(sdk.Int64("id"), sdk.Float64("amount"), sdk.String("channel"), sdk.Bool("sub"), sdk.Time("at"),
		sdk.Date("d"), sdk.Timestamp("ts"), sdk.Uint64("u"), sdk.Int128("h"), sdk.Decimal("price", 10, 2)),
		row(int64(3), 2.5, "web", true, at, at, at, uint64(7), h, "1.25"),
		row(int64(1), nil, nil, nil, nil, nil, nil, nil, nil, nil),
		row(int64(2), 4.0, "app", false, at.Add(time.Hour), at, at, uint64(9), big.NewInt(-4), "2.50"))
	const sel = `SELECT *, typeof(id) || typeof(amount) || typeof(channel) || typeof(sub) || typeof("at") || typeof(d) || typeof(ts) ||
		typeof(u) || typeof(h) || typeof(price) AS types, (SELECT count(*) FROM nothing) AS none FROM up`
	in := map[string]*sdk.Table{"up": up, "nothing": sdk.NewTable()}
	viaCTE, err := wh.RunSQL(ctx, "-- a comment first\n"+sel, in, nil)
	if err != nil {
		t.Fatal(err)
	}
	viaTemp, err := wh.RunSQL(ctx, "WITH unused AS (SELECT 1) "+sel, in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(viaCTE.Schema(), rowsOf(viaCTE)), fmt.Sprint(viaTemp.Schema(), rowsOf(viaTemp)); g != w {
		t.Errorf("as CTEs %s\n  as temporary tables %s", g, w)
	}
	if viaCTE.Len() != 3 {
		t.Errorf("%d rows, want 3", viaCTE.Len())
	}
	// DuckDB asks strata_rows for the columns a query reads only (the
	// others are skipped, table_source.go): a subset, out of order.
	const some = `SELECT price, channel, h FROM up`
	a, err := wh.RunSQL(ctx, some, in, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := wh.RunSQL(ctx, "WITH unused AS (SELECT 1) "+some, in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rowsOf(a)), fmt.Sprint(rowsOf(b)); g != w || !strings.Contains(g, "web") {
		t.Errorf("a subset as CTEs %s\n  as temporary tables %s", g, w)
	}
	got, err := wh.RunSQL(ctx, `SELECT count(*) AS n FROM temp.up`, in, nil)
	if err != nil || got.Column("n").Value(0) != int64(3) {
		t.Errorf("temp.up: %v %v, want 3 rows", got, err)
	}
	_, err = wh.RunSQL(ctx, "SELECT nope FROM up", in, nil)
	assertErrContains(t, err, `LINE 1: SELECT nope FROM up`)
}
