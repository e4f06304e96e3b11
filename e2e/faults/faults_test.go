package faults

import (
	"flag"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/strataproc"
)

var (
	seedFlag   = flag.Int64("soak.seed", 0, "seed of the first trial (default: STRATA_SOAK_SEED, else the clock)")
	trialsFlag = flag.Int("soak.trials", 0, "trials TestFaultSoak runs (default: STRATA_SOAK_TRIALS; 0 skips it)")
)

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	strataproc.Cleanup()
	os.Exit(code)
}

// seed is the flag, else STRATA_SOAK_SEED, else the clock; it is printed so
// that any failure can be replayed.
func seed(t *testing.T) int64 {
	s := *seedFlag
	if s == 0 {
		if env := os.Getenv("STRATA_SOAK_SEED"); env != "" {
			n, err := strconv.ParseInt(env, 10, 64)
			if err != nil {
				t.Fatalf("STRATA_SOAK_SEED=%q: want an integer", env)
			}
			s = n
		}
	}
	if s == 0 {
		s = time.Now().UnixNano() % 1_000_000_007
	}
	t.Logf("seed %d (replay: STRATA_SOAK_SEED=%d)", s, s)
	return s
}

func report(t *testing.T, tr Trial, v violations) {
	t.Helper()
	if len(v) == 0 {
		return
	}
	t.Errorf("%s\nbroke %d invariant(s):", tr, len(v))
	for _, e := range v {
		t.Errorf("  %s", e)
	}
}

// The short slice `make test` runs: the four corners (CLI and server,
// partition and atomic publish, paced and unpaced, concurrency 1 and 4),
// each killed twice at seeded moments and resumed.
func TestFaultsShort(t *testing.T) {
	if testing.Short() {
		t.Skip("kills the real binary")
	}
	d := NewDriver(t)
	for _, tr := range Corners(seed(t)) {
		t.Log(tr)
		report(t, tr, d.Run(t, tr))
	}
}

// Kills with several partitions committing together: none of a group is
// half-kept, nothing committed is lost or published twice, and no
// partition counts done before its group committed (the invariants).
func TestFaultsGroupCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("kills the real binary")
	}
	d := NewDriver(t)
	for _, tr := range GroupCommits(seed(t)) {
		t.Log(tr)
		report(t, tr, d.Run(t, tr))
	}
}

// The scenarios' short slice `make test` runs: one promote race and one
// takeover, drawn from the seed (about half a minute).
func TestScenariosShort(t *testing.T) {
	if testing.Short() {
		t.Skip("drives the real binary")
	}
	d := NewDriver(t)
	s := seed(t)
	for i, kind := range []string{"promote-race", "takeover"} {
		sc := PlanScenario(i, s+int64(i), kind)
		t.Log(sc)
		if v := d.RunScenario(t, sc); len(v) > 0 {
			t.Errorf("%s\nbroke %d invariant(s):", sc, len(v))
			for _, e := range v {
				t.Errorf("  %s", e)
			}
		}
	}
}

// TestScenarioSoak is the soak of the scenarios: STRATA_SOAK_TRIALS of
// them, alternating kinds, from consecutive seeds (make soak).
func TestScenarioSoak(t *testing.T) {
	n := *trialsFlag
	if env := os.Getenv("STRATA_SOAK_TRIALS"); n == 0 && env != "" {
		n, _ = strconv.Atoi(env)
	}
	if n <= 0 {
		t.Skip("set STRATA_SOAK_TRIALS or -soak.trials (make soak)")
	}
	d := NewDriver(t)
	first := seed(t)
	for i := range n {
		sc := PlanScenario(i, first+int64(i), []string{"promote-race", "takeover"}[i%2])
		t.Log(sc)
		if v := d.RunScenario(t, sc); len(v) > 0 {
			t.Errorf("%s\nbroke %d invariant(s):", sc, len(v))
			for _, e := range v {
				t.Errorf("  %s", e)
			}
		}
	}
}

// The soak `make soak` runs: trials drawn from consecutive seeds. A failed
// trial prints its own seed; STRATA_SOAK_SEED=<it> STRATA_SOAK_TRIALS=1
// replays its plan.
func TestFaultSoak(t *testing.T) {
	n := *trialsFlag
	if env := os.Getenv("STRATA_SOAK_TRIALS"); n == 0 && env != "" {
		var err error
		if n, err = strconv.Atoi(env); err != nil {
			t.Fatalf("STRATA_SOAK_TRIALS=%q: want an integer", env)
		}
	}
	if n <= 0 {
		t.Skip("set STRATA_SOAK_TRIALS or -soak.trials (make soak)")
	}
	d := NewDriver(t)
	first := seed(t)
	failed := 0
	start := time.Now()
	for i := range n {
		tr := PlanTrial(i, first+int64(i))
		t.Log(tr)
		v := d.Run(t, tr)
		report(t, tr, v)
		if len(v) > 0 {
			failed++
		}
	}
	t.Logf("soak: %d trials from seed %d, %d failed, in %s", n, first, failed, time.Since(start).Round(time.Second))
}

// reportEnd checks the suite's end invariants for a backfill whose
// processes have all stopped: its status against the warehouse.
func (d *Driver) reportEnd(t *testing.T, tr Trial, dir, id string) {
	t.Helper()
	st := d.backfillStatus(t, dir, id)
	w, err := openWarehouse(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	report(t, tr, w.checkEnd(tr, dir, id, st, d.ref))
}

// TestFaultsCells is the N-D trial (issue 27): a day × region backfill
// killed and resumed, compared cell by cell with a clean run.
func TestFaultsCells(t *testing.T) {
	if testing.Short() {
		t.Skip("drives the real binary")
	}
	tr := PlanCellsTrial(seed(t))
	t.Log(tr)
	d := &Driver{Bin: strataproc.Binary(t)} // its own reference: not the demo's
	if v := d.RunCells(t, tr); len(v) > 0 {
		t.Errorf("%s\nbroke %d invariant(s):", tr, len(v))
		for _, e := range v {
			t.Errorf("  %s", e)
		}
	}
}

// TestFaultsCellsBatched is TestFaultsCells with the load block batched
// across region (one query for 3 days × 4 regions): each cell still its
// own publish, so a kill between a window's publishes keeps those made.
func TestFaultsCellsBatched(t *testing.T) {
	if testing.Short() {
		t.Skip("drives the real binary")
	}
	tr := PlanCellsTrial(seed(t))
	tr.Batched = true
	t.Log(tr)
	d := &Driver{Bin: strataproc.Binary(t)}
	if v := d.RunCells(t, tr); len(v) > 0 {
		t.Errorf("%s\nbroke %d invariant(s):", tr, len(v))
		for _, e := range v {
			t.Errorf("  %s", e)
		}
	}
}
