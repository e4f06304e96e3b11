package engine

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
)

// allocated is the bytes the Go heap allocated while f ran (the whole
// process: run it in a test that is not parallel).
func allocated(t *testing.T, f func()) uint64 {
	t.Helper()
	runtime.GC()
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestBackfillGridPagesAreBounded: the backfill page's reads of a backfill
// of 60 days × 20 regions × 50 customers (60,000 cells): its status, a
// page of its grid deep into it, a page filtered by a region and the page
// of its failed cells each allocate what they answer, not a map of every
// cell. Before, each read every cell's latest event and catalog version
// into Go maps (a status of the 3.65-million-cell grid took 43 s and the
// server 3.7 GB). Not parallel: it measures the process's allocations.
func TestBackfillGridPagesAreBounded(t *testing.T) {
	const days, regions, customers = 60, 20, 50
	const cells = days * regions * customers
	e := newEnv(t, false, gridFiles(customers, regions))
	ctx := context.Background()
	e.mustSucceed(e.run("customers", "all"))
	id := seedGridBackfill(t, e, "cells", days, regions, customers)
	const budget = 2 << 20 // a map of the 60,000 cells' states alone is over 8 MiB

	var st *BackfillStatus
	if n := allocated(t, func() {
		var err error
		if st, err = e.eng.Backfill(ctx, id); err != nil {
			t.Fatal(err)
		}
	}); n > budget {
		t.Errorf("the status allocated %d KiB; want at most %d KiB", n>>10, budget>>10)
	}
	if st.Total != cells || st.Progress.Failed != cells/100 || st.Progress.Skipped != cells/100 || st.Progress.Succeeded != cells-2*cells/100 {
		t.Fatalf("status: total %d progress %+v", st.Total, st.Progress)
	}
	if len(st.Ran) != 1 || st.Ran[0].Partitions != cells || st.Ran[0].Snapshot != st.Snapshot {
		t.Fatalf("status: ran %+v, want every cell by %s", st.Ran, st.Snapshot)
	}

	// A page deep into the grid: the cell at position n failed when n%100 == 7.
	var page []PartitionStatus
	var total int
	if n := allocated(t, func() {
		var err error
		if page, total, err = e.eng.BackfillPartitions(ctx, id, "", 41_200, 100); err != nil {
			t.Fatal(err)
		}
	}); n > budget {
		t.Errorf("a page of 100 allocated %d KiB; want at most %d KiB", n>>10, budget>>10)
	}
	if total != cells || len(page) != 100 {
		t.Fatalf("page: %d of %d", len(page), total)
	}
	// 41,200 = day 41 (2024-02-11), region 4, customer 0.
	if page[0].Key != "2024-02-11|r04|c000" || page[7].State != StateFailed || page[8].State != StateSkipped ||
		page[9].State != StateSucceeded || page[9].RunID != id+":"+page[9].Key || page[9].Snapshot != st.Snapshot || page[9].Duration == 0 {
		t.Fatalf("page: %+v … %+v %+v %+v", page[0], page[7], page[8], page[9])
	}

	// Region r03 only, the last page of it.
	if n := allocated(t, func() {
		var err error
		if page, total, err = e.eng.BackfillPartitionsQuery(ctx, id, PartitionQuery{Where: map[string][]string{"region": {"r03"}}, Offset: days*customers - 10, Limit: 100}); err != nil {
			t.Fatal(err)
		}
	}); n > budget {
		t.Errorf("a filtered page allocated %d KiB; want at most %d KiB", n>>10, budget>>10)
	}
	if total != days*customers || len(page) != 10 || page[9].Key != "2024-02-29|r03|c049" {
		t.Fatalf("region r03: %d of %d, last %+v", len(page), total, page[len(page)-1])
	}

	// One region and one customer: a cell a day, over every day.
	if n := allocated(t, func() {
		var err error
		if page, total, err = e.eng.BackfillPartitionsQuery(ctx, id, PartitionQuery{Where: map[string][]string{"region": {"r03"}, "customer": {"c007"}}, Limit: 100}); err != nil {
			t.Fatal(err)
		}
	}); n > budget {
		t.Errorf("a page of a cell a day allocated %d KiB; want at most %d KiB", n>>10, budget>>10)
	}
	if total != days || len(page) != days || page[0].Key != "2024-01-01|r03|c007" || page[days-1].Key != "2024-02-29|r03|c007" || page[0].State != StateSucceeded {
		t.Fatalf("r03 c007: %d of %d: %+v … %+v", len(page), total, page[0], page[len(page)-1])
	}

	// The failed cells, as the failure groups read them.
	if n := allocated(t, func() {
		var err error
		if page, total, err = e.eng.BackfillPartitions(ctx, id, string(StateFailed), 0, 5); err != nil {
			t.Fatal(err)
		}
	}); n > budget {
		t.Errorf("a page of failed cells allocated %d KiB; want at most %d KiB", n>>10, budget>>10)
	}
	if total != cells/100 || len(page) != 5 || page[1].Key != "2024-01-01|r02|c007" || page[1].Error != "load: seeded failure" {
		t.Fatalf("failed: %d of %d: %+v", len(page), total, page)
	}

	// A filter naming what the pipeline does not have is the caller's error.
	for where, want := range map[string]string{
		"planet=mars": `no dimension "planet"`,
		"region=r99":  `"r99" is not a value of dimension region`,
		"customer=c1": `"c1" is not a value of dimension customer`,
	} {
		name, vals, _ := strings.Cut(where, "=")
		_, _, err := e.eng.BackfillPartitionsQuery(ctx, id, PartitionQuery{Where: map[string][]string{name: strings.Split(vals, ",")}, Limit: 10})
		var se *SpecError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), want) {
			t.Errorf("where %s: %v; want a SpecError saying %s", where, err, want)
		}
	}
}
