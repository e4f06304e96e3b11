package warehouse

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// bigTable is n rows of the four column types a typical fact table has;
// extra adds a fifth column (a schema change).
func bigTable(n int, seed int64, extra bool) *sdk.Table {
	fields := []sdk.Field{sdk.Int64("id"), sdk.Float64("amount"), sdk.String("customer"), sdk.Time("ts")}
	if extra {
		fields = append(fields, sdk.Bool("refunded"))
	}
	t := sdk.NewTable(fields...)
	cols := t.Columns()
	for _, c := range cols {
		c.Reserve(n)
	}
	base := day("2024-03-10")
	for i := range n {
		cols[0].AppendInt64(seed*1_000_000 + int64(i))
		cols[1].AppendFloat64(float64(i) * 0.25)
		cols[2].AppendString("customer-" + strconv.Itoa(i%5000))
		cols[3].AppendTime(base.Add(time.Duration(i) * time.Second))
		if extra {
			cols[4].AppendBool(i%7 == 0)
		}
	}
	return t
}

// helperPublishLoop publishes big partitions forever (until killed),
// printing "committed N" after each Publish returns.
func helperPublishLoop() int {
	ctx := context.Background()
	wh, err := Open(ctx, os.Getenv(helperPathEnv), Options{Retention: 2})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	tables := []*sdk.Table{bigTable(60_000, 1, false), bigTable(80_000, 2, true)}
	small := sdk.NewTable(sdk.Int64("n"))
	small.Append(1)
	fmt.Println("ready")
	for i := 0; ; i++ {
		key := day("2024-03-10").AddDate(0, 0, i%4).Format("2006-01-02")
		outs := []Output{out("big", key, tables[i%2]), out("small", key, small)}
		if _, err := wh.Publish(ctx, outs); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Printf("committed %d\n", i)
	}
}

func TestCrashKillKeepsCommittedVersionsIntact(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a publishing process several times")
	}
	t.Parallel()
	ctx := context.Background()
	path := t.TempDir() + "/w.duckdb"
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 1))
	printed := 0
	const rounds = 4
	for round := range rounds {
		cmd, _, lines := startHelper(t, "publish-loop", path)
		if lines.Text() != "ready" {
			t.Fatalf("round %d: helper said %q", round, lines.Text())
		}
		var committed atomic.Int64
		done := make(chan struct{})
		go func() {
			defer close(done)
			for lines.Scan() {
				if strings.HasPrefix(lines.Text(), "committed ") {
					committed.Add(1)
				}
			}
		}()
		time.Sleep(time.Duration(150+rng.IntN(1200)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		<-done
		printed += int(committed.Load())
		t.Logf("round %d: killed after %d publishes", round, committed.Load())

		wh, err := Open(ctx, path, Options{Retention: 2})
		if err != nil {
			t.Fatalf("round %d: reopen after SIGKILL: %v", round, err)
		}
		checkIntegrity(t, wh)
		// Every publish the helper saw commit is there; at most the one
		// killed between COMMIT and its print is extra.
		// Retention never removes the newest version, so the newest
		// versions add up to the number of publishes.
		publishes := func(product string) int64 {
			return scalar(t, wh, `SELECT coalesce(sum(newest), 0) FROM
				(SELECT max(version) AS newest FROM _strata.versions WHERE product = ? GROUP BY partition)`, product)
		}
		total := publishes("big")
		if total < int64(printed) || total > int64(printed+round+1) {
			t.Fatalf("round %d: %d publishes recorded, helper reported %d", round, total, printed)
		}
		if small := publishes("small"); small != total {
			t.Fatalf("round %d: big has %d versions, small %d: one publish was split", round, total, small)
		}
		printed = int(total)
		if err := wh.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// checkIntegrity asserts that the catalog and the rows agree: every version
// has exactly its recorded rows, no rows lack a version, no partition has
// two current versions, storage tables and the registry match, and each view
// shows exactly the current versions' rows.
func checkIntegrity(t *testing.T, wh *Warehouse) {
	t.Helper()
	ctx := context.Background()
	tables := query(t, wh, `SELECT table_name FROM _strata.storage ORDER BY table_name`)
	for i := range tables.Len() {
		name := tables.Row(i)[0].(string)
		q := qualified(name)
		if n := scalar(t, wh, `SELECT count(*) FROM _strata.versions v
			LEFT JOIN (SELECT _partition, _version, count(*) AS n FROM `+q+` GROUP BY ALL) s
				ON s._partition = v.partition AND s._version = v.version
			WHERE v.storage_table = ? AND coalesce(s.n, 0) <> v.row_count`, name); n != 0 {
			t.Fatalf("%s: %d versions whose row count does not match the catalog", name, n)
		}
		// Rows no version owns are exactly those of the dropped versions
		// the writer will sweep (orphan_sweep.go).
		stray := query(t, wh, `SELECT DISTINCT s._partition, s._version FROM `+q+` s ANTI JOIN _strata.versions v
			ON v.storage_table = ? AND v.partition = s._partition AND v.version = s._version ORDER BY ALL`, name)
		var got, want []VersionRef
		for i := range stray.Len() {
			r := stray.Row(i)
			got = append(got, VersionRef{Partition: r[0].(string), Version: int(r[1].(int64))})
		}
		wh.mu.Lock()
		for _, r := range wh.orphans[name] {
			want = append(want, VersionRef{Partition: r.Partition, Version: r.Version})
		}
		wh.mu.Unlock()
		slices.SortFunc(want, func(a, b VersionRef) int {
			return cmp.Or(strings.Compare(a.Partition, b.Partition), a.Version-b.Version)
		})
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: rows of %v belong to no version, the writer will sweep %v", name, got, want)
		}
	}
	if err := wh.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	for i := range tables.Len() {
		name := tables.Row(i)[0].(string)
		if n := scalar(t, wh, `SELECT count(*) FROM `+qualified(name)+` s ANTI JOIN _strata.versions v
			ON v.storage_table = ? AND v.partition = s._partition AND v.version = s._version`, name); n != 0 {
			t.Fatalf("%s: %d rows belong to no version after the sweep", name, n)
		}
	}
	if n := scalar(t, wh, `SELECT count(*) FROM (SELECT product, partition FROM _strata.current GROUP BY ALL HAVING count(*) > 1)`); n != 0 {
		t.Fatalf("%d partitions have more than one current version", n)
	}
	if n := scalar(t, wh, `SELECT count(*) FROM duckdb_tables() d WHERE d.schema_name = '_strata'
		AND d.table_name NOT IN ('meta', 'versions', 'discarded', 'storage', 'switch_log', 'pins', 'rollbacks', 'version_state', 'exports', 'product_owners', 'overlays', 'code_credits')
		AND d.table_name NOT IN (SELECT table_name FROM _strata.storage)`); n != 0 {
		t.Fatalf("%d storage tables are not registered", n)
	}
	products, err := wh.Products(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range products {
		if n := scalar(t, wh, `SELECT count(*) FROM `+quoteIdent(p.Name)); n != p.Rows {
			t.Fatalf("view %s shows %d rows, current versions hold %d", p.Name, n, p.Rows)
		}
		if _, err := wh.Read(ctx, p.Name, Selection{}, 10); err != nil {
			t.Fatal(err)
		}
	}
}
