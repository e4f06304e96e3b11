package engine

import (
	"context"
	"testing"
	"time"
)

// A slow weekly rollup (a Go block) so a stop can land after a week's days
// have succeeded and before the week is rolled up.
const slowWeeklyBlock = `package weekly

import (
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

func Transform(ctx *sdk.Context, agg *sdk.Table) (*sdk.Table, error) {
	time.Sleep(1500 * time.Millisecond)
	t := sdk.NewTable(sdk.Int64("days"))
	t.Append(int64(agg.Len()))
	return t, nil
}
`

// A backfill stopped after every day of a week had succeeded but before the
// week was rolled up rolls the week up when it resumes, even though the
// week already had a current version (from a run of one of its days): the
// resume counts the days an earlier pass ran as run by this backfill. It
// used to skip the week ("current"), leaving it rolled up from one day, and
// call the backfill succeeded. (Found by the fault-injection suite, seed
// 20261201.)
func TestResumeRollsUpWeekWhoseDaysAnEarlierPassRan(t *testing.T) {
	t.Parallel()
	files := dailyFiles("")
	delete(files, "blocks/weekly.sql")
	files["blocks/weekly/weekly.go"] = slowWeeklyBlock
	e := newEnv(t, false, files)
	ctx := context.Background()
	e.mustSucceed(e.run("p", "2024-01-10")) // 2024-W02 current, from one day
	if n := e.count(`SELECT days FROM p__weekly WHERE _partition = '2024-W02'`); n != 1 {
		t.Fatalf("setup: the week rolled up %d days", n)
	}
	st, err := e.eng.Launch(ctx, spec("2024-01-08", "2024-01-14"))
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		cur, _ := e.eng.Backfill(ctx, st.ID)
		if cur.Progress.Succeeded >= 6 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the days did not finish: %+v", cur.Progress)
		}
	}
	time.Sleep(300 * time.Millisecond) // the week's run is sleeping
	e.eng.Shutdown(ctx)
	if _, err := e.eng.Resume(ctx, st.ID); err != nil {
		t.Fatal(err)
	}
	end, err := e.eng.Wait(ctx, st.ID)
	if err != nil || end.State != StateSucceeded {
		t.Fatalf("resume: %v %+v", err, end)
	}
	if n := e.count(`SELECT days FROM p__weekly WHERE _partition = '2024-W02'`); n != 7 {
		t.Fatalf("after the resume the week rolled up %d days, want 7 (progress %+v)", n, end.Progress)
	}
	if end.Progress.Succeeded != 7 || end.Progress.Skipped != 1 {
		t.Fatalf("counts %+v, want 7 succeeded (6 days and the week), 1 skipped", end.Progress)
	}
}
