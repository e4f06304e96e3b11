package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// engineChild is a separate strata process for the kill and shutdown tests:
// it launches (or resumes) a backfill and waits for it, until the test kills
// it or STRATA_ENGINE_SHUTDOWN_AFTER has passed.
func engineChild() int {
	dir := os.Getenv("STRATA_ENGINE_DIR")
	e, err := openEnvErr(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx := context.Background()
	var id string
	if prev := os.Getenv("STRATA_ENGINE_RESUME"); prev != "" {
		if _, err := e.eng.Resume(ctx, prev); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		id = prev
	} else {
		var s BackfillSpec
		_ = json.Unmarshal([]byte(os.Getenv("STRATA_ENGINE_CHILD")), &s)
		st, err := e.eng.Launch(ctx, s)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		id = st.ID
	}
	fmt.Println(id)
	if d, err := time.ParseDuration(os.Getenv("STRATA_ENGINE_SHUTDOWN_AFTER")); err == nil {
		// A graceful stop (what `strata start` does on SIGTERM): the
		// backfill stays running in the log for the next process.
		time.Sleep(d)
		e.eng.Shutdown(ctx)
		e.eng.Close()
		e.pool.Close()
		if err := e.wh.Close(); err != nil {
			// Said, not fatal: the process exits anyway, and DuckDB's
			// WAL brings the next one to the same state.
			fmt.Fprintln(os.Stderr, "close after shutdown:", err, "\n"+databaseGoroutines())
		}
		return 0
	}
	st, _ := e.eng.Wait(ctx, id)
	e.close()
	if st == nil || st.State != StateSucceeded {
		return 1
	}
	return 0
}

// kill -9 of a backfill at random moments, then resume: every targeted
// (block, partition) ends with exactly one new current version from the
// backfill, no duplicated rows, no lost versions, and partitions that had
// succeeded are not run again.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("kills processes")
	}
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	e.mustSucceed(e.run("p", "2024-01-10")) // a version that must survive
	dir := e.dir
	e.close() // the child process holds the warehouse from here on

	s := spec("2024-01-01", "2024-02-29")
	s.Concurrency = 2
	raw, _ := json.Marshal(s)
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	id := ""
	for kill := 0; kill < 4; kill++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "STRATA_ENGINE_CHILD="+string(raw), "STRATA_ENGINE_DIR="+dir, "STRATA_ENGINE_RESUME="+id)
		out, _ := cmd.StdoutPipe()
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 64)
		n, _ := out.Read(buf)
		if id == "" {
			id = strings.TrimSpace(string(buf[:n]))
		}
		time.Sleep(time.Duration(200+rng.Intn(1500)) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		if id == "" {
			t.Fatalf("child printed no backfill id: %s", stderr.String())
		}
	}
	e = openEnv(t, dir)
	if _, err := e.eng.Resume(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	st, err := e.eng.Wait(context.Background(), id)
	if err != nil || st.State != StateSucceeded {
		t.Fatalf("resume: %v %s %q %+v", err, st.State, st.Message, st.Progress)
	}
	// A partition that succeeded is never started again (one that a kill
	// interrupted mid-run is, and must be).
	if n := e.count(`SELECT count(*) FROM _strata.run_events r WHERE r.backfill_id = ? AND r.block_id = '' AND r.state = 'running'
		AND r.seq > (SELECT min(s.seq) FROM _strata.run_events s WHERE s.run_id = r.run_id AND s.block_id = '' AND s.state = 'succeeded')`, id); n != 0 {
		t.Fatalf("%d runs started again after they had succeeded", n)
	}
	if n := e.count(`SELECT count(DISTINCT run_id) FROM _strata.run_events WHERE backfill_id = ? AND state = 'succeeded' AND block_id = ''`, id); n < 60 {
		t.Fatalf("only %d runs succeeded", n)
	}
	// Exactly one version per (product, partition) from the backfill's runs.
	if n := e.count(`SELECT count(*) FROM (SELECT product, partition FROM _strata.versions WHERE starts_with(run_id, ?) GROUP BY 1, 2 HAVING count(*) > 1)`, id+":"); n != 0 {
		t.Fatalf("%d (product, partition) pairs got more than one version from the backfill", n)
	}
	// 2024-01-10 existed before: it was skipped (reprocess missing), its version kept.
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE product = 'p__agg' AND partition = '2024-01-10'`); n != 1 {
		t.Fatalf("pre-existing version lost or duplicated: %d", n)
	}
	if n := e.count(`SELECT count(*) FROM _strata.current WHERE product IN ('p__src', 'p__agg')`); n != 2*60 {
		t.Fatalf("current partitions = %d, want 120", n)
	}
	// No duplicated rows: each day's src has as many rows as its day of month.
	if n := e.count(`SELECT count(*) FROM (SELECT _partition, count(*) c, max(CAST(strptime(_partition, '%Y-%m-%d') AS DATE)) d FROM p__src GROUP BY 1) WHERE c <> day(d)`); n != 0 {
		t.Fatalf("%d partitions have duplicated or missing rows", n)
	}
	if n := e.count(`SELECT count(*) FROM _strata.current WHERE product = 'p__weekly'`); n != 9 {
		t.Fatalf("weekly partitions = %d, want 9 (2024-W01..W09)", n)
	}
}
