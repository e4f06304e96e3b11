package warehouse

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
)

func TestPublishNumbersVersionsPerPartition(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	for want := 1; want <= 3; want++ {
		v := publish(t, wh, "orders", "2024-03-10", ids(t, int64(want*10), int64(want*10+1)))
		if v.Version != want || !v.Current || v.Rows != 2 {
			t.Fatalf("publish %d: got %+v", want, v)
		}
	}
	if v := publish(t, wh, "orders", "2024-03-11", ids(t, 7)); v.Version != 1 {
		t.Fatalf("first version of another partition is %d, want 1", v.Version)
	}
	versions, current := versionsOf(t, wh, "orders", "2024-03-10")
	if !reflect.DeepEqual(versions, []int{1, 2, 3}) || current != 3 {
		t.Fatalf("versions %v current %d, want [1 2 3] current 3", versions, current)
	}
	assertRows(t, read(t, wh, "orders", Selection{Partitions: []string{"2024-03-10"}}),
		row("2024-03-10", int64(30)), row("2024-03-10", int64(31)))
	assertRows(t, read(t, wh, "orders", Selection{Partitions: []string{"2024-03-10"}, Version: 1}),
		row("2024-03-10", int64(10)), row("2024-03-10", int64(11)))
}

func TestPublishRecordsLineage(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	o := out("weekly", "2024-03-10", ids(t, 1))
	o.RunID, o.CodeHash = "run-42", "abc123"
	o.Upstream = map[string]map[string]int{"orders": {"2024-03-10": 3, "2024-03-11": 1}}
	if _, err := wh.Publish(context.Background(), []Output{o}); err != nil {
		t.Fatal(err)
	}
	parts, err := wh.Partitions(context.Background(), "weekly")
	if err != nil {
		t.Fatal(err)
	}
	v := parts[0].Versions[0]
	if v.RunID != "run-42" || v.CodeHash != "abc123" || !reflect.DeepEqual(v.Upstream, o.Upstream) || v.Rows != 1 {
		t.Fatalf("version info %+v", v)
	}
	if !parts[0].Start.Equal(day("2024-03-10")) || !parts[0].End.Equal(day("2024-03-11")) || parts[0].Current != 1 {
		t.Fatalf("partition info %+v", parts[0])
	}
}

func TestRetentionKeepsNewestAndCurrent(t *testing.T) {
	t.Parallel()
	wh := openTemp(t, Options{Retention: 2})
	for i := 1; i <= 5; i++ {
		publish(t, wh, "p", "2024-03-10", ids(t, int64(i)))
	}
	if versions, current := versionsOf(t, wh, "p", "2024-03-10"); !reflect.DeepEqual(versions, []int{4, 5}) || current != 5 {
		t.Fatalf("after 5 publishes: versions %v current %d, want [4 5] current 5", versions, current)
	}
	// The rows of removed versions wait for the sweep, unseen, and then
	// are gone, not just their catalog rows.
	if n := scalar(t, wh, `SELECT count(*) FROM p`); n != 1 {
		t.Fatalf("view rows %d, want the current version's 1", n)
	}
	if err := wh.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := scalar(t, wh, `SELECT count(*) FROM `+qualified(storageTableName("p", ids(t).Schema()))); n != 2 {
		t.Fatalf("storage rows %d after the sweep, want 2", n)
	}
	// Roll back to 4, publish twice more: 4 stays because it is current.
	if err := wh.Rollback(context.Background(), "p", "2024-03-10", 4); err != nil {
		t.Fatal(err)
	}
	stage(t, wh, "p", "2024-03-10", ids(t, 6))
	stage(t, wh, "p", "2024-03-10", ids(t, 7))
	if versions, current := versionsOf(t, wh, "p", "2024-03-10"); !reflect.DeepEqual(versions, []int{4, 6, 7}) || current != 4 {
		t.Fatalf("after staging: versions %v current %d, want [4 6 7] current 4", versions, current)
	}
	err := wh.Rollback(context.Background(), "p", "2024-03-10", 2)
	assertErrContains(t, err, `product "p" has no version 2 of partition 2024-03-10 any more: it was removed by retention or discarded (versions: 4, 6, 7; current 4)`)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("error %v does not wrap ErrNotFound", err)
	}
	checkIntegrity(t, wh)
}

func TestRetentionDropsTablesOfOldSchemas(t *testing.T) {
	t.Parallel()
	wh := openTemp(t, Options{Retention: 1})
	oldSchema := table(t, cols(sdk.Int64("id")), row(1))
	newSchema := table(t, cols(sdk.Int64("id"), sdk.String("note")), row(2, "new"))
	publish(t, wh, "p", "2024-03-10", oldSchema)
	publish(t, wh, "p", "2024-03-10", newSchema)
	tables := `SELECT count(*) FROM duckdb_tables() WHERE schema_name = '_strata' AND starts_with(table_name, 'p__')`
	if n := scalar(t, wh, tables); n != 1 {
		t.Fatalf("%d storage tables after the old schema's only version was removed, want 1", n)
	}
	assertRows(t, query(t, wh, `SELECT * FROM p`), row("2024-03-10", int64(2), "new"))
	assertRows(t, read(t, wh, "p", Selection{}), row("2024-03-10", int64(2), "new"))
	if n := scalar(t, wh, `SELECT count(*) FROM _strata.storage WHERE product = 'p'`); n != 1 {
		t.Fatalf("registry lists %d tables", n)
	}
}

func TestRetentionVictims(t *testing.T) {
	t.Parallel()
	v := func(n int, current bool) keptVersion { return keptVersion{version: n, table: "t", current: current} }
	cases := []struct {
		name     string
		versions []keptVersion
		keep     int
		want     []int
	}{
		{"under the limit", []keptVersion{v(1, false), v(2, true)}, 3, nil},
		{"oldest go", []keptVersion{v(1, false), v(2, false), v(3, false), v(4, true)}, 2, []int{2, 1}},
		{"current is kept beyond the limit", []keptVersion{v(1, true), v(2, false), v(3, false), v(4, false)}, 2, []int{2}},
		{"order does not matter", []keptVersion{v(3, true), v(1, false), v(2, false)}, 1, []int{2, 1}},
	}
	for _, c := range cases {
		var got []int
		for _, x := range retentionVictims(c.versions, c.keep) {
			got = append(got, x.version)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestRollbackSwitchesCurrentAndView(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	publish(t, wh, "p", "2024-03-10", ids(t, 1))
	publish(t, wh, "p", "2024-03-10", ids(t, 2))
	publish(t, wh, "p", "2024-03-11", ids(t, 9))
	assertRows(t, query(t, wh, `SELECT * FROM p ORDER BY _partition`), row("2024-03-10", int64(2)), row("2024-03-11", int64(9)))
	if err := wh.Rollback(context.Background(), "p", "2024-03-10", 1); err != nil {
		t.Fatal(err)
	}
	assertRows(t, query(t, wh, `SELECT * FROM p ORDER BY _partition`), row("2024-03-10", int64(1)), row("2024-03-11", int64(9)))
	assertRows(t, read(t, wh, "p", Selection{Partitions: []string{"2024-03-10"}}), row("2024-03-10", int64(1)))
	err := wh.Rollback(context.Background(), "p", "2024-03-10", 7)
	assertErrContains(t, err, `product "p" has no version 7 of partition 2024-03-10 (versions: 1, 2; current 1)`)
	checkIntegrity(t, wh)
}

func TestPublishIsAllOrNothing(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	publish(t, wh, "existing", "2024-03-10", ids(t, 1))
	big := sdk.NewTable(sdk.Int64("id"), sdk.String("s"))
	for i := range 150_000 { // many data chunks through strata_rows
		big.Append(i, "x")
	}
	broken := sdk.NewTable(sdk.Int64("id"))
	broken.Append("not a number")

	cases := []struct {
		name   string
		second Output
		want   string
	}{
		{"invalid table", out("second", "2024-03-10", broken), `output 2 (second, partition 2024-03-10): invalid table: row 0: column "id" is int64, got string`},
		// Fails inside the transaction, after the first output was appended.
		{"product differing in case", out("Existing", "2024-03-10", ids(t, 2)), `product "Existing" differs only in case from existing product "existing"`},
		{"reserved column", out("second", "2024-03-10", table(t, cols(sdk.Int64("_version")))), `column "_version" is reserved`},
	}
	for _, c := range cases {
		outs := []Output{out("first", "2024-03-10", big), out("existing", "2024-03-10", ids(t, 2)), c.second}
		_, err := wh.Publish(context.Background(), outs)
		assertErrContains(t, err, c.want)
		if n := scalar(t, wh, `SELECT count(*) FROM duckdb_tables() WHERE schema_name = '_strata' AND table_name LIKE 'first%'`); n != 0 {
			t.Fatalf("%s: storage table of the first output exists", c.name)
		}
		if n := scalar(t, wh, `SELECT count(*) FROM _strata.versions WHERE product = 'first'`); n != 0 {
			t.Fatalf("%s: %d catalog rows of the first output", c.name, n)
		}
		if n := scalar(t, wh, `SELECT count(*) FROM duckdb_views() WHERE view_name = 'first'`); n != 0 {
			t.Fatalf("%s: view of the first output exists", c.name)
		}
	}
	assertRows(t, query(t, wh, `SELECT * FROM existing`), row("2024-03-10", int64(1)))
	// Nothing was consumed: the next publish is version 1 of a new table
	// and version 2 of the existing partition.
	vs, err := wh.Publish(context.Background(), []Output{
		out("first", "2024-03-10", big), out("second", "2024-03-10", ids(t, 5)), out("existing", "2024-03-10", ids(t, 2)),
	})
	if err != nil {
		t.Fatal(err)
	}
	if vs[0].Version != 1 || vs[1].Version != 1 || vs[2].Version != 2 || vs[0].Rows != 150_000 {
		t.Fatalf("versions %+v", vs)
	}
	if n := scalar(t, wh, `SELECT count(*) FROM first`); n != 150_000 {
		t.Fatalf("view first has %d rows", n)
	}
}

// TestPublishInsertJoinsTransaction pins what publishing relies on: rows
// inserted through the strata_rows table function on a connection with an
// open transaction belong to that transaction.
func TestPublishInsertJoinsTransaction(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	ctx := context.Background()
	conn, err := wh.DB().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	exec := func(q string) {
		t.Helper()
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	exec(`CREATE TABLE _strata.probe (_partition VARCHAR, _version INTEGER, id BIGINT)`)
	if err := registerTableSource(conn); err != nil {
		t.Fatal(err)
	}
	tbl := ids(t, 1, 2, 3)
	for _, end := range []string{"ROLLBACK", "COMMIT"} {
		exec("BEGIN TRANSACTION")
		if err := insertTable(ctx, conn, "probe", "k", 1, tbl); err != nil {
			t.Fatal(err)
		}
		if n := scalar(t, wh, `SELECT count(*) FROM _strata.probe`); n != 0 {
			t.Fatalf("another connection sees %d uncommitted rows", n)
		}
		exec(end)
	}
	if n := scalar(t, wh, `SELECT count(*) FROM _strata.probe`); n != 3 {
		t.Fatalf("after ROLLBACK then COMMIT: %d rows, want 3", n)
	}
}

func TestStagePromoteDiscard(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	ctx := context.Background()
	publish(t, wh, "p", "2024-03-10", ids(t, 1))
	a := stage(t, wh, "p", "2024-03-10", ids(t, 2))
	b := stage(t, wh, "p", "2024-03-11", ids(t, 3))
	if a.Current || a.Version != 2 || b.Version != 1 {
		t.Fatalf("staged %+v %+v", a, b)
	}
	// Staged versions are invisible until promoted.
	assertRows(t, query(t, wh, `SELECT * FROM p ORDER BY _partition`), row("2024-03-10", int64(1)))
	_, err := wh.Read(ctx, "p", Selection{Partitions: []string{"2024-03-11"}}, 0)
	assertErrContains(t, err, `product "p" partition 2024-03-11 has no current version (staged versions: 1)`)
	if err := wh.Promote(ctx, []VersionRef{a.Ref(), b.Ref()}, ""); err != nil {
		t.Fatal(err)
	}
	assertRows(t, query(t, wh, `SELECT * FROM p ORDER BY _partition`), row("2024-03-10", int64(2)), row("2024-03-11", int64(3)))

	// Promote is all or nothing too.
	c := stage(t, wh, "p", "2024-03-10", ids(t, 4))
	err = wh.Promote(ctx, []VersionRef{c.Ref(), {Product: "p", Partition: "2024-03-11", Version: 9}}, "")
	assertErrContains(t, err, `product "p" has no version 9 of partition 2024-03-11`)
	assertRows(t, query(t, wh, `SELECT * FROM p WHERE _partition = '2024-03-10'`), row("2024-03-10", int64(2)))

	// Discard drops staged versions and refuses the current one.
	assertErrContains(t, wh.Discard(ctx, []VersionRef{a.Ref()}), "is current")
	if err := wh.Discard(ctx, []VersionRef{c.Ref()}); err != nil {
		t.Fatal(err)
	}
	if versions, _ := versionsOf(t, wh, "p", "2024-03-10"); !reflect.DeepEqual(versions, []int{1, 2}) {
		t.Fatalf("versions after discard %v", versions)
	}
	// A discarded number is not handed out again.
	if v := stage(t, wh, "p", "2024-03-10", ids(t, 5)); v.Version != 4 {
		t.Fatalf("next version after discarding 3 is %d, want 4", v.Version)
	}
	checkIntegrity(t, wh)
}

func TestDiscardedNumbersSurviveReopen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.duckdb")
	wh := openAt(t, path, Options{}) // the backend under test
	var err error
	stage(t, wh, "p", "2024-03-10", ids(t, 1))
	v2 := stage(t, wh, "p", "2024-03-10", ids(t, 2))
	if err := wh.Discard(ctx, []VersionRef{v2.Ref()}); err != nil {
		t.Fatal(err)
	}
	wh.Close()
	wh = openAt(t, path, Options{}) // a cold cache reads the catalog
	defer wh.Close()
	if v := stage(t, wh, "p", "2024-03-10", ids(t, 3)); v.Version != 3 {
		t.Fatalf("after discarding 2 and reopening, the next version is %d, want 3", v.Version)
	}
	err = wh.Rollback(ctx, "p", "2024-03-10", 2)
	assertErrContains(t, err, "has no version 2 of partition 2024-03-10 any more")
}

func TestDiscardLastVersionDropsProduct(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	v := stage(t, wh, "tmp", "2024-03-10", ids(t, 1))
	if n := scalar(t, wh, `SELECT count(*) FROM duckdb_views() WHERE view_name = 'tmp'`); n != 1 {
		t.Fatalf("view of a staged-only product: %d", n)
	}
	if err := wh.Discard(context.Background(), []VersionRef{v.Ref()}); err != nil {
		t.Fatal(err)
	}
	if n := scalar(t, wh, `SELECT count(*) FROM duckdb_views() WHERE view_name = 'tmp'`); n != 0 {
		t.Fatal("view survived its product")
	}
	if n := scalar(t, wh, `SELECT count(*) FROM duckdb_tables() WHERE schema_name = '_strata' AND table_name LIKE 'tmp__%'`); n != 0 {
		t.Fatal("storage table survived its last version")
	}
	if ps, err := wh.Products(context.Background()); err != nil || len(ps) != 0 {
		t.Fatalf("products %v %v", ps, err)
	}
}

func TestConcurrentPublishAndRead(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 4 {
		wg.Go(func() {
			for i := range 8 {
				key := day("2024-01-01").AddDate(0, 0, g*10+i).Format("2006-01-02")
				if _, err := wh.Publish(ctx, []Output{out("c", key, ids(t, int64(i)))}); err != nil {
					errs <- err
					return
				}
				if _, err := wh.Read(ctx, "c", Selection{Last: 3}, 0); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := scalar(t, wh, `SELECT count(*) FROM c`); n != 32 {
		t.Fatalf("view has %d rows, want 32", n)
	}
}

func TestProductsSummary(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	publish(t, wh, "b", "2024-03-10", ids(t, 1, 2))
	publish(t, wh, "b", "2024-03-12", ids(t, 3))
	publish(t, wh, "b", "2024-03-11", ids(t, 4))
	publish(t, wh, "a", "2024-03-10", ids(t, 1))
	stage(t, wh, "staged", "2024-03-10", ids(t, 1))
	ps, err := wh.Products(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 3 || ps[0].Name != "a" || ps[1].Name != "b" || ps[2].Name != "staged" {
		t.Fatalf("products %+v", ps)
	}
	if b := ps[1]; b.Partitions != 3 || b.Rows != 4 || b.LatestPartition != "2024-03-12" || b.UpdatedAt.IsZero() {
		t.Fatalf("b: %+v", b)
	}
	if s := ps[2]; s.Partitions != 0 || s.Rows != 0 {
		t.Fatalf("staged-only product: %+v", s)
	}
}
