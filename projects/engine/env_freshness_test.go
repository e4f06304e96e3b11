package engine

import (
	"context"
	"database/sql"
	"errors"
	"testing"
)

// A max_age refresh that a read inside an environment asks for runs into
// that environment: staged and pinned there, never current in prod; the
// environment's next read finds its own version fresh. Prod's own read
// still refreshes prod.
func TestEnvReadRefreshesIntoTheEnv(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, map[string]string{
		"pipelines/raw.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: raw
    product: raw_events
`,
		"blocks/raw.sql":          "SELECT $partition_key AS day, now() AS at\n",
		"pipelines/readers.yaml":  readerPipeline("1h"),
		"blocks/reader/reader.go": readerBlock,
	})
	const owner = "env:dev"
	inEnv := RunOptions{Stage: true, Pin: owner, PreferPinned: owner}
	current := func() int {
		t.Helper()
		var v int
		err := e.wh.DB().QueryRow(`SELECT version FROM _strata.current WHERE product = 'raw_events' AND partition = '2024-01-05'`).Scan(&v)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			t.Fatal(err)
		}
		return v
	}
	pinned := func() (n int) {
		t.Helper()
		if err := e.wh.DB().QueryRow(`SELECT count(*) FROM _strata.pins WHERE owner = ? AND product = 'raw_events' AND partition = '2024-01-05'`, owner).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	// Nothing of raw_events 2024-01-05 exists: a read in dev refreshes it into dev.
	for range 2 {
		res, err := e.eng.Run(context.Background(), "readers", "2024-01-10", inEnv)
		if err != nil {
			t.Fatal(err)
		}
		e.mustSucceed(res)
		if n := res.Output("reader").Row(0)[0]; n != int64(1) {
			t.Fatalf("reader in dev read %v rows, want 1 (dev's refresh)", n)
		}
		if v := current(); v != 0 {
			t.Fatalf("a read in dev made raw_events 2024-01-05 v%d current in prod", v)
		}
		if n := pinned(); n != 1 {
			t.Fatalf("dev pins %d versions of raw_events 2024-01-05, want 1 (refreshed once, then fresh)", n)
		}
	}
	runs, err := e.eng.Runs(context.Background(), RunFilter{Pipeline: "raw", Origin: OriginFreshness})
	if err != nil || len(runs) != 1 {
		t.Fatalf("refresh runs: %+v %v, want one", runs, err)
	}

	// Prod's read refreshes prod (dev's staged version is not prod's).
	e.mustSucceed(e.run("readers", "2024-01-10"))
	if v := current(); v != 2 {
		t.Fatalf("after a prod read: raw_events 2024-01-05 current v%d, want v2 (prod's own refresh)", v)
	}
}
