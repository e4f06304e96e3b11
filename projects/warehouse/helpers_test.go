package warehouse

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// helperEnv selects a helper-process role when the test binary re-executes
// itself (see lock and crash tests).
const helperEnv = "STRATA_WAREHOUSE_HELPER"

func TestMain(m *testing.M) {
	switch role := os.Getenv(helperEnv); role {
	case "":
		os.Exit(m.Run())
	case "hold":
		os.Exit(helperHold())
	case "publish-loop":
		os.Exit(helperPublishLoop())
	case "lake-hang":
		os.Exit(helperLakeHang())
	case "lake-hold":
		os.Exit(helperLakeHold())
	default:
		fmt.Fprintf(os.Stderr, "unknown %s=%q\n", helperEnv, role)
		os.Exit(2)
	}
}

// openTemp opens a warehouse in a fresh temp dir, closed at cleanup.
func openTemp(t testing.TB, opts ...Options) *Warehouse {
	t.Helper()
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	wh := openAt(t, filepath.Join(t.TempDir(), "warehouse.duckdb"), o)
	t.Cleanup(func() { wh.Close() })
	return wh
}

// openAt opens the warehouse at path; the test closes it.
func openAt(t testing.TB, path string, o Options) *Warehouse {
	t.Helper()
	if o.Lake == nil {
		o.Lake = lakeFor(t, filepath.Dir(path)) // the backend under test (backend_conformance_test.go)
	}
	wh, err := Open(context.Background(), path, o)
	if err != nil {
		t.Fatal(err)
	}
	return wh
}

// day parses a day key as midnight UTC.
func day(key string) time.Time {
	d, err := time.Parse("2006-01-02", key)
	if err != nil {
		panic(err)
	}
	return d
}

// out is the Output of a daily partition.
func out(product, partition string, tbl *sdk.Table) Output {
	return Output{
		Product: product, Partition: partition,
		PartitionStart: day(partition), PartitionEnd: day(partition).AddDate(0, 0, 1),
		Table: tbl, RunID: "run-" + partition, CodeHash: "code1",
	}
}

// publish publishes one daily partition and returns its version.
func publish(t testing.TB, wh *Warehouse, product, partition string, tbl *sdk.Table) Version {
	t.Helper()
	vs, err := wh.Publish(context.Background(), []Output{out(product, partition, tbl)})
	if err != nil {
		t.Fatal(err)
	}
	return vs[0]
}

func stage(t testing.TB, wh *Warehouse, product, partition string, tbl *sdk.Table) Version {
	t.Helper()
	vs, err := wh.Stage(context.Background(), []Output{out(product, partition, tbl)})
	if err != nil {
		t.Fatal(err)
	}
	return vs[0]
}

// cols and row make table literals readable: table(t, cols(...), row(...), ...).
func cols(fields ...sdk.Field) []sdk.Field { return fields }
func row(values ...any) []any              { return values }

func table(t testing.TB, fields []sdk.Field, rows ...[]any) *sdk.Table {
	t.Helper()
	tbl := sdk.NewTable(fields...)
	for _, r := range rows {
		tbl.Append(r...)
	}
	if err := tbl.Err(); err != nil {
		t.Fatal(err)
	}
	return tbl
}

// ids is a one-column table of int64 ids.
func ids(t testing.TB, vals ...int64) *sdk.Table {
	rows := make([][]any, len(vals))
	for i, v := range vals {
		rows[i] = row(v)
	}
	return table(t, cols(sdk.Int64("id")), rows...)
}

func read(t testing.TB, wh *Warehouse, product string, sel Selection) *sdk.Table {
	t.Helper()
	tbl, err := wh.Read(context.Background(), product, sel, 0)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

func query(t testing.TB, wh *Warehouse, sql string, args ...any) *sdk.Table {
	t.Helper()
	tbl, err := wh.Query(context.Background(), sql, args...)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// rowsOf returns a table's rows as values (nil for null).
func rowsOf(tbl *sdk.Table) [][]any {
	out := make([][]any, tbl.Len())
	for i := range out {
		out[i] = tbl.Row(i)
	}
	return out
}

// names returns a table's column names.
func names(tbl *sdk.Table) []string {
	var out []string
	for _, f := range tbl.Schema() {
		out = append(out, f.Name)
	}
	return out
}

func assertRows(t testing.TB, got *sdk.Table, want ...[]any) {
	t.Helper()
	if want == nil {
		want = [][]any{}
	}
	if g := rowsOf(got); !reflect.DeepEqual(g, want) {
		t.Fatalf("rows:\n got  %v\n want %v", g, want)
	}
}

func assertNames(t testing.TB, got *sdk.Table, want ...string) {
	t.Helper()
	if g := names(got); !reflect.DeepEqual(g, want) {
		t.Fatalf("columns: got %v, want %v", g, want)
	}
}

func assertErrContains(t testing.TB, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want one containing %q", want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not contain %q", err, want)
	}
}

// scalar runs a query returning one int64.
func scalar(t testing.TB, wh *Warehouse, sql string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := wh.DB().QueryRowContext(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// versionsOf lists the kept version numbers of a partition.
func versionsOf(t testing.TB, wh *Warehouse, product, partition string) (versions []int, current int) {
	t.Helper()
	parts, err := wh.Partitions(context.Background(), product)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range parts {
		if p.Key == partition {
			for _, v := range p.Versions {
				versions = append(versions, v.Version)
			}
			return versions, p.Current
		}
	}
	t.Fatalf("partition %s of %s not listed", partition, product)
	return nil, 0
}
