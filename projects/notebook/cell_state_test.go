package notebook

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func statesOf(t *testing.T, s *Session, key string, sources map[string]string) map[string]CellState {
	t.Helper()
	sts, err := s.CellStates(context.Background(), "clv", key, "", sources)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]CellState{}
	for _, c := range sts {
		out[c.Block] = c
	}
	return out
}

// A session's drafts are judged against the cells' text and their
// upstreams' drafts, and "Run with upstream" runs exactly the ancestors
// that are not fresh (and what lies below them), upstreams first. A block
// under the dynamic parent lists the items of the parent's draft and runs
// as the one chosen.
func TestCellStatesAndRunPlan(t *testing.T) {
	m, eng := newTestManager(t)
	const key = "2024-01-03"
	rec := newRecorder()
	s, err := m.Attach("tab-a", rec, "h1")
	if err != nil {
		t.Fatal(err)
	}
	src := func(f string) string { return readBlock(t, eng, f) }
	raw := src("blocks/raw_orders/raw_orders.go")
	dcm := src("blocks/daily_customer_metrics.sql")
	st := statesOf(t, s, key, nil)
	if c := st["clv"]; c.Stored.State != "missing" || c.Draft != nil || c.Fresh || !slices.Equal(c.Plan, []string{"raw_orders", "daily_customer_metrics", "clv"}) {
		t.Fatalf("nothing run yet, clv: %+v", c)
	}
	for i, b := range []struct{ block, src string }{{"raw_orders", raw}, {"daily_customer_metrics", dcm}} {
		if ev := run(t, s, rec, Exec{ID: "e" + string(rune('0'+i)), Pipeline: "clv", Block: b.block, Source: b.src, Partition: key}); ev.Kind != EventResult {
			t.Fatalf("%s: %+v", b.block, ev.Error)
		}
	}
	st = statesOf(t, s, key, nil)
	if c := st["daily_customer_metrics"]; c.Draft == nil || c.Draft.State != "current" || !c.Fresh {
		t.Fatalf("a fresh draft: %+v %+v", c, c.Draft)
	}
	if c := st["segments"]; !slices.Equal(c.Plan, []string{"clv", "segments"}) {
		t.Fatalf("segments would run %v, want clv then segments", c.Plan)
	}

	// raw_orders again: the metrics draft is older than its upstream's.
	if ev := run(t, s, rec, Exec{ID: "e2", Pipeline: "clv", Block: "raw_orders", Source: raw, Partition: key}); ev.Kind != EventResult {
		t.Fatalf("raw_orders again: %+v", ev.Error)
	}
	st = statesOf(t, s, key, nil)
	if c := st["daily_customer_metrics"]; c.Draft.State != "stale" || c.Draft.Cause != CauseUpstream || !strings.Contains(c.Draft.Reason, "raw_orders has a newer draft") {
		t.Fatalf("after the upstream ran again: %+v", c.Draft)
	}
	if c := st["clv"]; !slices.Equal(c.Plan, []string{"daily_customer_metrics", "clv"}) {
		t.Fatalf("clv would run %v", c.Plan)
	}
	// An unsaved edit of raw_orders: its draft is older than its text.
	edited := strings.Replace(raw, "for c := 0; c < customers; c++ {", "for c := 0; c < customers && c < 5; c++ {", 1)
	st = statesOf(t, s, key, map[string]string{"raw_orders": edited})
	if c := st["raw_orders"]; c.Draft.State != "stale" || c.Draft.Cause != CauseCode {
		t.Fatalf("raw_orders with an edit: %+v", c.Draft)
	}
	if c := st["clv"]; !slices.Equal(c.Plan, []string{"raw_orders", "daily_customer_metrics", "clv"}) {
		t.Fatalf("clv would run %v", c.Plan)
	}
	// A layout-only edit is no code change.
	if c := statesOf(t, s, key, map[string]string{"raw_orders": raw + "\n// note\n"})["raw_orders"]; c.Draft.State != "current" {
		t.Fatalf("a comment made the draft stale: %+v", c.Draft)
	}

	// Through the dynamic parent: items come from the segments draft.
	for i, b := range []string{"daily_customer_metrics", "clv", "segments"} {
		if ev := run(t, s, rec, Exec{ID: "g" + string(rune('0'+i)), Pipeline: "clv", Block: b, Source: src(eng.Project().Pipelines["clv"].Block(b).File), Partition: key}); ev.Kind != EventResult {
			t.Fatalf("%s: %+v", b, ev.Error)
		}
	}
	c := statesOf(t, s, key, nil)["segment_stats"]
	if c.Items == nil || !c.Items.Draft || len(c.Items.Keys) < 2 {
		t.Fatalf("segment_stats items: %+v %s", c.Items, c.ItemsError)
	}
	second := c.Items.Keys[1]
	ev := run(t, s, rec, Exec{ID: "h1", Pipeline: "clv", Block: "segment_stats", Source: src("blocks/segment_stats/segment_stats.go"), Partition: key, Item: second})
	if ev.Kind != EventResult || ev.Result.Item != second {
		t.Fatalf("segment_stats as %s: %+v %+v", second, ev.Result, ev.Error)
	}
	if got := ev.Result.Preview.Rows[0][0]; got != second {
		t.Fatalf("segment_stats ran for segment %v, want %s", got, second)
	}
	if d := statesOf(t, s, key, nil)["segment_stats"].Draft; d == nil || d.Item != second {
		t.Fatalf("the draft's item: %+v", d)
	}
}
