package main

import (
	"strings"
	"testing"

	"github.com/stratahq/strata/projects/project"
)

// $STRATA_LAKE_THREADS sets DuckDB's threads on a lake; a value that is
// not a count is refused, naming the variable and what it wants.
func TestLakeThreadsEnv(t *testing.T) {
	proj := &project.Project{Dir: t.TempDir(), Warehouse: project.WarehouseConfig{Kind: project.WarehouseDuckLake, Catalog: "/x/c.ducklake", DataPath: "/x/data"}}
	t.Setenv(lakeThreadsEnv, "3")
	o, err := warehouseOptions(proj, false)
	if err != nil || o.Lake == nil || o.Lake.Threads != 3 {
		t.Fatalf("%s=3: %+v, %v", lakeThreadsEnv, o.Lake, err)
	}
	for _, bad := range []string{"0", "many"} {
		t.Setenv(lakeThreadsEnv, bad)
		if _, err := warehouseOptions(proj, false); err == nil || !strings.Contains(err.Error(), lakeThreadsEnv) {
			t.Fatalf("%s=%s: %v, want an error naming the variable", lakeThreadsEnv, bad, err)
		}
	}
}
