//go:build linux

package warehouse

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
)

// Close lets go of the DuckDB file before it returns, after every kind of
// work that holds native objects on a connection (the writer's prepared
// statements and table function, an Appender's temporary table, read
// transactions, a conflict's rolled-back write): an object outliving Close
// keeps DuckDB's instance alive, and the next Open of the same file spins
// inside duckdb_get_or_create_from_cache for good (duckdb/duckdb#25965).
// Linux only: the open files are read from /proc/self/fd.
func TestCloseReleasesTheFileForEveryReopen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "warehouse.duckdb")
	for round := range 20 {
		wh := openAt(t, path, Options{})
		publish(t, wh, "p", "2024-01-01", ids(t, int64(round), 2, 3))
		read(t, wh, "p", Selection{})
		query(t, wh, "SELECT count(*) FROM p")
		if _, err := wh.RunSQL(ctx, "SELECT count(*) AS n FROM src", map[string]*sdk.Table{"src": ids(t, 1, 2)}, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := wh.Query(ctx, "SELECT * FROM no_such_table"); err == nil {
			t.Fatal("a query of a missing table succeeded")
		}
		if err := wh.Close(); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if open := openFilesUnder(t, path); len(open) > 0 {
			t.Fatalf("round %d: after Close the process still has %v open: a native object outlived the connections", round, open)
		}
	}
}

// openFilesUnder lists this process's open files whose path starts with
// prefix, the lock file aside (Close releases it last, by design).
func openFilesUnder(t *testing.T, prefix string) []string {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	var open []string
	for _, e := range ents {
		l, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name()))
		if err == nil && len(l) >= len(prefix) && l[:len(prefix)] == prefix && l != prefix+".lock" {
			open = append(open, l)
		}
	}
	return open
}
