package notebook

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/engine"
)

// A cell reads the draft the cell above produced in the same session, with
// nothing published; another session has no such draft and is told to run
// the upstream first; after a published run, a session without drafts
// reads the published version and says which.
func TestDownstreamReadsUpstreamDraft(t *testing.T) {
	m, eng := newTestManager(t)
	const key = "2024-01-03"
	rec := newRecorder()
	s, err := m.Attach("tab-a", rec, "h1")
	if err != nil {
		t.Fatal(err)
	}
	// An edited raw_orders: three orders only, unsaved.
	src := readBlock(t, eng, "blocks/raw_orders/raw_orders.go")
	edited := strings.Replace(src, "for c := 0; c < customers; c++ {", "for c := 0; c < customers && n < 3; c++ {", 1)
	if edited == src {
		t.Fatal("the demo raw_orders changed: cannot place the edit")
	}
	ev := run(t, s, rec, Exec{ID: "e1", Pipeline: "clv", Block: "raw_orders", Source: edited, Partition: key})
	if ev.Kind != EventResult || ev.Result.Preview.RowCount != 3 {
		t.Fatalf("raw_orders: %+v %+v", ev.Result, ev.Error)
	}
	const count = "SELECT count(*) AS n FROM raw_orders"
	ev = run(t, s, rec, Exec{ID: "e2", Pipeline: "clv", Block: "daily_customer_metrics", Source: count, Partition: key})
	if ev.Kind != EventResult {
		t.Fatalf("downstream: %+v", ev.Error)
	}
	if got := ev.Result.Preview.Rows[0][0]; got != float64(3) && got != "3" && got != int64(3) {
		t.Fatalf("downstream counted %v rows of raw_orders, want the draft's 3", got)
	}
	in := ev.Result.Inputs
	if len(in) != 1 || in[0].Block != "raw_orders" || !in[0].Draft || in[0].DraftAt == nil {
		t.Fatalf("inputs %+v: want raw_orders from the draft", in)
	}

	// Another session holds no draft: nothing is published either.
	rec2 := newRecorder()
	s2, _ := m.Attach("tab-b", rec2, "h2")
	ev = run(t, s2, rec2, Exec{ID: "f1", Pipeline: "clv", Block: "daily_customer_metrics", Source: count, Partition: key})
	if ev.Kind != EventError || !strings.Contains(ev.Error.Message, "run the raw_orders cell") {
		t.Fatalf("without a draft or data: %+v %+v", ev.Result, ev.Error)
	}

	// Published: the session without drafts reads version 1.
	if _, err := eng.Run(context.Background(), "clv", key, engine.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	ev = run(t, s2, rec2, Exec{ID: "f2", Pipeline: "clv", Block: "daily_customer_metrics", Source: count, Partition: key})
	if ev.Kind != EventResult {
		t.Fatalf("after publish: %+v", ev.Error)
	}
	in = ev.Result.Inputs
	if len(in) != 1 || in[0].Draft || in[0].Versions[key] != 1 {
		t.Fatalf("inputs %+v: want raw_orders published v1", in)
	}
	if n := ev.Result.Preview.Rows[0][0]; n == float64(3) || n == "3" {
		t.Fatalf("published read counted %v: that is the other session's draft", n)
	}
	// The warehouse's _partition column is not part of a block's input.
	ev = run(t, s2, rec2, Exec{ID: "f3", Pipeline: "clv", Block: "daily_customer_metrics", Source: "SELECT * FROM raw_orders LIMIT 1", Partition: key})
	if ev.Kind != EventResult {
		t.Fatalf("select *: %+v", ev.Error)
	}
	for _, c := range ev.Result.Preview.Columns {
		if c.Name == "_partition" {
			t.Fatalf("columns %+v: the warehouse's _partition leaked into the block's input", ev.Result.Preview.Columns)
		}
	}
	if len(ev.Result.Preview.Columns) != 6 {
		t.Fatalf("columns %+v: want raw_orders' 6", ev.Result.Preview.Columns)
	}
	// The first session still prefers its own draft.
	ev = run(t, s, rec, Exec{ID: "e3", Pipeline: "clv", Block: "daily_customer_metrics", Source: count, Partition: key})
	if ev.Kind != EventResult || !ev.Result.Inputs[0].Draft {
		t.Fatalf("after publish, session a: %+v %+v", ev.Result, ev.Error)
	}
	if d := s.Drafts("clv", ""); len(d) != 2 {
		t.Fatalf("drafts %+v: want raw_orders and daily_customer_metrics", d)
	}
}

// The draft store keeps at most its bound, dropping the oldest written.
func TestDraftStoreBound(t *testing.T) {
	d := newDraftStore(2)
	for _, k := range []string{"a", "b", "c"} {
		d.put(DraftKey{"p", k, "x", ""}, nil, time.Time{}, draftMeta{})
	}
	if _, ok := d.get(DraftKey{"p", "a", "x", ""}); ok {
		t.Fatal("the oldest draft stayed past the bound")
	}
	if _, ok := d.get(DraftKey{"p", "c", "x", ""}); !ok {
		t.Fatal("the newest draft went")
	}
}
