package engine

import (
	"context"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/warehouse"
)

// A backfill commits several partitions to a warehouse transaction (their
// publishes, final states and the running states of the runs starting in
// their slots), and the log still never has more partitions running than
// the concurrency: a run starting in the slot of one whose publish waits
// commits its running state with that publish, never before it.
func TestBackfillCommitsSeveralPartitionsATransaction(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	s := spec("2024-01-01", "2024-01-28") // 28 days and 4 weeks
	s.Concurrency = 4
	before := e.wh.Commits()
	if st := e.backfill(s); st.State != StateSucceeded || st.Progress.Succeeded != 32 {
		t.Fatalf("backfill: %s %q %+v", st.State, st.Message, st.Progress)
	}
	// One each, as before, would be 32 publishes and about as many running
	// states riding along: at least 32.
	if n := e.wh.Commits() - before; n >= 28 {
		t.Fatalf("32 partitions took %d transactions, want them grouped (fewer than 28)", n)
	}
	if n := e.count(`SELECT count(*) FROM _strata.current WHERE product = 'p__agg'`); n != 28 {
		t.Fatalf("%d of 28 days current", n)
	}
	if most := mostRunning(t, e); most > s.Concurrency {
		t.Fatalf("the log had %d runs running at once, concurrency %d", most, s.Concurrency)
	}
}

// mostRunning replays the backfills' run states in the log's order and
// returns the most runs it showed running at once.
func mostRunning(t *testing.T, e *env) int {
	t.Helper()
	rows, err := e.wh.DB().QueryContext(context.Background(), `SELECT run_id, state FROM _strata.run_events
		WHERE block_id = '' AND backfill_id IS NOT NULL AND backfill_id <> '' ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	running, most := map[string]bool{}, 0
	for rows.Next() {
		var run, state string
		if err := rows.Scan(&run, &state); err != nil {
			t.Fatal(err)
		}
		if State(state) == StateRunning {
			running[run] = true
		} else {
			delete(running, run)
		}
		most = max(most, len(running))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return most
}

// A run whose publish fails inside its group has given its slot back
// already: the run starting in that slot must not be running in the log
// before the failed run's final state is, even though its running state
// was handed to the same transaction as the failed publish. Every publish
// here fails inside the transaction (a product differing only in case
// from one the warehouse has), at concurrency 1.
func TestGroupCommitKeepsConcurrencyWhenAPublishFails(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, map[string]string{"pipelines/c.yaml": counterPipeline, "blocks/counter/counter.go": counterBlock})
	clash := sdk.NewTable(sdk.String("day"), sdk.Int64("n"))
	clash.Append("2023-12-31", int64(0))
	day := time.Date(2023, 12, 31, 0, 0, 0, 0, time.UTC)
	if _, err := e.wh.Publish(context.Background(), []warehouse.Output{{Product: "C__COUNTER", Partition: "2023-12-31",
		PartitionStart: day, PartitionEnd: day.AddDate(0, 0, 1), Table: clash, RunID: "clash", CodeHash: "x"}}); err != nil {
		t.Fatal(err)
	}
	st := e.backfill(BackfillSpec{Pipeline: "c", From: "2024-01-01", To: "2024-01-06"})
	if st.State == StateSucceeded || st.Progress.Failed != 6 {
		t.Fatalf("backfill: %s %q %+v, want all 6 days failed", st.State, st.Message, st.Progress)
	}
	if n := e.count(`SELECT count(*) FROM _strata.run_events WHERE block_id = '' AND state = 'failed' AND error LIKE '%differs only in case%'`); n != 6 {
		t.Fatalf("%d runs failed for the product's name, want 6", n)
	}
	if most := mostRunning(t, e); most > 1 {
		t.Fatalf("the log had %d runs running at once, concurrency 1", most)
	}
}

// A counter kept in ctx.State: each partition adds one to what the one
// before it left. At concurrency 1 the backfill runs them in order, and a
// run's blocks start only once the previous partition's publish (and the
// cursor in it) committed, even though the slot is given back before.
const counterPipeline = `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
concurrency: 1
blocks:
  - id: counter
`

const counterBlock = `package counter

import (
	"strconv"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	st := ctx.State()
	n, _ := strconv.ParseInt(st.Get("n"), 10, 64)
	n++
	st.Set("n", strconv.FormatInt(n, 10))
	t := sdk.NewTable(sdk.String("day"), sdk.Int64("n"))
	t.Append(ctx.Partition.Key, n)
	return t, nil
}
`

func TestGroupCommitHandsTheCursorOnInOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, map[string]string{"pipelines/c.yaml": counterPipeline, "blocks/counter/counter.go": counterBlock})
	if st := e.backfill(BackfillSpec{Pipeline: "c", From: "2024-01-01", To: "2024-01-12"}); st.State != StateSucceeded {
		t.Fatalf("backfill: %s %q", st.State, st.Message)
	}
	if n := e.count(`SELECT count(DISTINCT n) FROM c__counter WHERE n BETWEEN 1 AND 12`); n != 12 {
		t.Fatalf("%d distinct counts 1..12 over 12 days: a run read the cursor before the previous publish committed", n)
	}
	if n := e.count(`SELECT count(*) FROM c__counter WHERE n <> datediff('day', DATE '2024-01-01', day::DATE) + 1`); n != 0 {
		t.Fatalf("%d days out of order", n)
	}
}
