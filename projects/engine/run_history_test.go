package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// The runs list filters by what launched a run and by state, and pages.
func TestRunsFilterByOriginStateAndPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles("2024-01-03"))
	ctx := context.Background()
	editor, _ := PersonOrigin(OriginEditor)
	cli, _ := PersonOrigin(OriginCLI)
	for _, r := range []struct {
		key string
		o   *Origin
	}{{"2024-01-01", editor}, {"2024-01-02", cli}, {"2024-01-03", editor}, {"2024-01-04", nil}} {
		if _, err := e.eng.Run(ctx, "p", r.key, RunOptions{Origin: r.o}); err != nil {
			t.Fatal(err)
		}
	}
	st := e.backfill(spec("2024-01-05", "2024-01-06"))
	if st.State != StateSucceeded {
		t.Fatalf("backfill %s: %s", st.State, st.Message)
	}
	keys := func(f RunFilter) string {
		t.Helper()
		f.Pipeline = "p"
		rs, err := e.eng.Runs(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var ks []string
		for _, r := range rs {
			ks = append(ks, r.Partition+"/"+r.Launched)
		}
		return strings.Join(ks, " ")
	}
	for _, c := range []struct {
		name string
		f    RunFilter
		want string
	}{
		{"editor", RunFilter{Origin: OriginEditor}, "2024-01-03/editor 2024-01-01/editor"},
		{"cli", RunFilter{Origin: OriginCLI}, "2024-01-02/cli"},
		{"failed", RunFilter{State: StateFailed}, "2024-01-03/editor"},
		{"editor succeeded", RunFilter{Origin: OriginEditor, State: StateSucceeded}, "2024-01-01/editor"},
		{"api", RunFilter{Origin: OriginAPI}, ""},
	} {
		if got := keys(c.f); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	// The backfill's two days and its week's rollup, in any order.
	if got := keys(RunFilter{Origin: OriginBackfill}); len(strings.Fields(got)) != 3 || strings.Count(got, "/backfill") != 3 {
		t.Errorf("backfill: %q", got)
	}
	if got := keys(RunFilter{Origin: "manual"}); len(strings.Fields(got)) != 7 {
		t.Errorf("manual: %q", got)
	}
	all := strings.Fields(keys(RunFilter{}))
	if got := keys(RunFilter{Limit: 2, Offset: 2}); len(all) != 7 || got != all[2]+" "+all[3] {
		t.Errorf("page 2 of 2: %q of %q", got, all)
	}
	if err := CheckOriginFilter("robot"); err == nil {
		t.Fatal("origin robot accepted")
	}
}

// CancelRun interrupts a running run, which ends cancelled and says so; a
// run that ended cannot be cancelled.
func TestCancelRun(t *testing.T) {
	t.Parallel()
	files := dailyFiles("")
	delete(files, "blocks/weekly.sql")
	files["blocks/weekly/weekly.go"] = strings.Replace(slowWeeklyBlock, "1500 * time.Millisecond", "60 * time.Second", 1)
	e := newEnv(t, false, files)
	ctx := context.Background()
	done := make(chan *RunResult, 1)
	go func() {
		res, err := e.eng.Run(ctx, "p", "2024-01-10", RunOptions{RunID: "run_cancel_me"})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	// Wait until the slow block runs, then cancel.
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		d, err := e.eng.RunDetail(ctx, "run_cancel_me")
		if err == nil && len(d.Blocks) > 0 && d.Blocks[len(d.Blocks)-1].Block == "weekly" && d.Blocks[len(d.Blocks)-1].State == StateRunning {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the weekly block did not start: %+v %v", d, err)
		}
	}
	if err := e.eng.CancelRun(ctx, "run_cancel_me"); err != nil {
		t.Fatal(err)
	}
	var res *RunResult
	select {
	case res = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the cancelled run did not end")
	}
	if res == nil || res.State != StateCancelled || !strings.Contains(res.Error, "cancelled by a user") {
		t.Fatalf("cancelled run: %+v", res)
	}
	d, err := e.eng.RunDetail(ctx, "run_cancel_me")
	if err != nil || d.State != StateCancelled {
		t.Fatalf("recorded: %+v %v", d, err)
	}
	var na *RunNotActiveError
	if err := e.eng.CancelRun(ctx, "run_cancel_me"); !errors.As(err, &na) || na.State != StateCancelled {
		t.Fatalf("cancel an ended run: %v", err)
	}
	var nf *NotFoundError
	if err := e.eng.CancelRun(ctx, "run_nope"); !errors.As(err, &nf) {
		t.Fatalf("cancel an unknown run: %v", err)
	}
}
