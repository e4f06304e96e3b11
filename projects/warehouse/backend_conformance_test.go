package warehouse

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stratahq/strata/e2e/pgtest"
)

// The conformance suite: the warehouse's guarantees, written once as the
// package's own tests, run against every backend. A backend is a factory
// of LakeOptions for a test's folder (nil: the embedded DuckDB file);
// openAt asks lakeFor, which picks the factory registered for the running
// test's parent (TestConformance/<backend>/...). Outside the suite,
// STRATA_TEST_WAREHOUSE=ducklake runs the whole package over a DuckLake
// with a file catalog.

// lakeFactory makes the lake a test's warehouse in dir uses.
type lakeFactory func(t testing.TB, dir string) *LakeOptions

var (
	factories sync.Map // test name prefix -> lakeFactory
	lakes     sync.Map // folder -> *LakeOptions, so a reopen finds the same lake
)

// fileLake is a DuckLake whose catalog is a DuckDB file beside the data.
func fileLake(_ testing.TB, dir string) *LakeOptions {
	return &LakeOptions{Catalog: filepath.Join(dir, "catalog.ducklake"), DataPath: filepath.Join(dir, "lake")}
}

// postgresLake gives each warehouse a database of its own in one cluster.
func postgresLake(c *pgtest.Cluster) lakeFactory {
	var n atomic.Int64
	return func(t testing.TB, dir string) *LakeOptions {
		db := fmt.Sprintf("lake_%d", n.Add(1))
		c.Psql(t, "CREATE DATABASE "+db)
		return &LakeOptions{
			Catalog:  fmt.Sprintf("postgres:host=%s port=%d user=%s dbname=%s sslmode=disable", c.Host, c.Port, c.User, db),
			Password: c.Password,
			DataPath: filepath.Join(dir, "lake"),
		}
	}
}

// lakeFor is the lake of the backend under test for a warehouse in dir.
func lakeFor(t testing.TB, dir string) *LakeOptions {
	if o, ok := lakes.Load(dir); ok {
		return o.(*LakeOptions)
	}
	var f lakeFactory
	factories.Range(func(k, v any) bool {
		if strings.HasPrefix(t.Name(), k.(string)) {
			f = v.(lakeFactory)
			return false
		}
		return true
	})
	if f == nil && os.Getenv("STRATA_TEST_WAREHOUSE") == "ducklake" {
		f = fileLake
	}
	if f == nil {
		return nil
	}
	o := f(t, dir)
	lakes.Store(dir, o)
	if o != nil {
		onLake.Store(t.Name(), true)
	}
	return o
}

// onLake names the tests whose warehouse lakeFor put on a lake: the suite
// checks that each guarantee really ran there, not on a file opened aside.
var onLake sync.Map

// guarantees are what every backend keeps, each proven by a test of the
// package that opens its warehouse through openTemp or openAt.
var guarantees = []struct {
	name string
	test func(*testing.T)
}{
	{"VersionsNumberedPerPartition", TestPublishNumbersVersionsPerPartition},
	{"VersionsRecordLineage", TestPublishRecordsLineage},
	{"VersionNumbersSurviveReopen", TestDiscardedNumbersSurviveReopen},
	{"PublishAllOrNothing", TestPublishIsAllOrNothing},
	{"PublishWhileReading", TestConcurrentPublishAndRead},
	{"CompareAndSetPublish", testPublishIfCurrent},
	{"CompareAndSetPromote", TestSwitchBatchExpectBasedOn},
	{"StagedReviewPromoteDiscard", TestStagePromoteDiscard},
	{"PromoteAndRevertBatch", TestSwitchBatchPromoteAndRevert},
	{"Rollback", TestRollbackSwitchesCurrentAndView},
	{"RollbackLog", TestPutBacksNameWhatARollbackMadeCurrent},
	{"RollbackRefusesNeverCurrent", TestRollbackRefusesANeverCurrentVersion},
	{"RetentionKeepsNewestAndCurrent", TestRetentionKeepsNewestAndCurrent},
	{"RetentionDropsOldSchemas", TestRetentionDropsTablesOfOldSchemas},
	{"DroppedRowsNeverRead", TestDroppedVersionsRowsAreNeverRead},
	{"PinsSurviveRetention", TestPinnedVersionsSurviveRetention},
	{"PinnedStagesSurviveRetention", TestGroupedPinnedStagesSurviveRetention},
	{"BlockStateFollowsCurrent", TestStateFollowsTheCurrentVersion},
	{"OwnerRecordedAndGuarded", TestPublishRecordsAndGuardsTheOwner},
	{"ProductsSummary", TestProductsSummary},
}

func TestConformance(t *testing.T) {
	backends := []struct {
		name string
		make func(t *testing.T) lakeFactory
	}{
		{"duckdb", func(*testing.T) lakeFactory { return func(testing.TB, string) *LakeOptions { return nil } }},
		{"ducklake-file", func(*testing.T) lakeFactory { return fileLake }},
		{"ducklake-postgres", func(t *testing.T) lakeFactory { return postgresLake(pgtest.Start(t)) }},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			factories.Store(t.Name()+"/", b.make(t))
			lake := b.name != "duckdb"
			t.Cleanup(func() {
				factories.Delete(t.Name() + "/")
				for _, g := range guarantees {
					if _, ok := onLake.Load(t.Name() + "/" + g.name); lake && !ok {
						t.Errorf("%s did not open its warehouse on the lake (openTemp or openAt, not Open)", g.name)
					}
				}
			})
			for _, g := range guarantees {
				t.Run(g.name, g.test)
			}
			if lake {
				t.Run("SnapshotPerWrite", testSnapshotPerWrite)
			}
		})
	}
}

// testPublishIfCurrent: a compare-and-set publish whose partition moved on
// makes nothing current and stages its output; one based on the current
// version goes through.
func testPublishIfCurrent(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	ctx := context.Background()
	v1 := publish(t, wh, "c", "2024-03-10", ids(t, 1))
	publish(t, wh, "c", "2024-03-10", ids(t, 2)) // newer work meanwhile
	o := out("c", "2024-03-10", ids(t, 3))
	o.BasedOn, o.IfCurrent = v1.Version, true
	_, err := wh.Publish(ctx, []Output{o})
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("publish based on v1 after v2: %v, want a *ConflictError", err)
	}
	if versions, current := versionsOf(t, wh, "c", "2024-03-10"); !reflect.DeepEqual(versions, []int{1, 2, 3}) || current != 2 {
		t.Fatalf("after the conflict: versions %v current %d, want [1 2 3] current 2", versions, current)
	}
	assertRows(t, query(t, wh, `SELECT * FROM c`), row("2024-03-10", int64(2)))
	o.BasedOn = 2
	vs, err := wh.Publish(ctx, []Output{o})
	if err != nil || len(vs) != 1 || vs[0].Version != 4 || !vs[0].Current {
		t.Fatalf("publish based on the current v2: %+v %v", vs, err)
	}
	assertRows(t, query(t, wh, `SELECT * FROM c`), row("2024-03-10", int64(3)))
	checkIntegrity(t, wh)
}

// testSnapshotPerWrite: on a lake, each write transaction of the warehouse
// (rows, catalog rows, current flags) is exactly one DuckLake snapshot, so
// a reader of the lake sees a version whole or not at all; and the rows
// are DuckLake's (inlined in the catalog while small, Parquet under the
// data path once flushed), not a file beside it.
func testSnapshotPerWrite(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	ctx := context.Background()
	snapshots := func() int64 {
		var n int64
		if err := wh.DB().QueryRowContext(ctx, `SELECT max(snapshot_id) FROM ducklake_snapshots('`+LakeName+`')`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	publish(t, wh, "s", "2024-03-10", ids(t, 1))
	before := snapshots()
	for i := range 3 {
		publish(t, wh, "s", "2024-03-10", ids(t, int64(10+i)))
	}
	if got := snapshots() - before; got != 3 {
		t.Fatalf("3 publishes made %d snapshots, want 3", got)
	}
	if _, err := wh.DB().ExecContext(ctx, `CALL ducklake_flush_inlined_data('`+LakeName+`')`); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(wh.backend.(*lakeBackend).opts.DataPath, "*", "*", "*.parquet"))
	if len(files) == 0 {
		t.Fatalf("no Parquet file under %s after a flush", wh.backend.(*lakeBackend).opts.DataPath)
	}
	assertRows(t, query(t, wh, `SELECT * FROM s`), row("2024-03-10", int64(12)))
	checkIntegrity(t, wh)
}
