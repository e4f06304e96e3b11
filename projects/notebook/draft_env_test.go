package notebook

import (
	"context"
	"strings"
	"testing"

	"github.com/stratahq/strata/projects/engine"
)

// A draft belongs to the environment its cell ran in: a cell run in prod
// does not read as its input a draft made in dev (over dev's data), nor a
// dev cell one made in prod; each environment's cell states and draft
// list show only its own.
func TestDraftsArePerEnvironment(t *testing.T) {
	m, eng := newTestManager(t)
	const key, dev = "2024-01-03", "env:dev"
	if _, err := eng.Run(context.Background(), "clv", key, engine.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	rec := newRecorder()
	s, err := m.Attach("tab-env", rec, "h1")
	if err != nil {
		t.Fatal(err)
	}
	src := readBlock(t, eng, "blocks/raw_orders/raw_orders.go")
	edited := strings.Replace(src, "for c := 0; c < customers; c++ {", "for c := 0; c < customers && n < 3; c++ {", 1)
	if edited == src {
		t.Fatal("the demo raw_orders changed: cannot place the edit")
	}
	if ev := run(t, s, rec, Exec{ID: "d1", Pipeline: "clv", Block: "raw_orders", Source: edited, Partition: key, Env: dev}); ev.Kind != EventResult || ev.Result.Preview.RowCount != 3 {
		t.Fatalf("raw_orders in dev: %+v %+v", ev.Result, ev.Error)
	}
	const count = "SELECT count(*) AS n FROM raw_orders"
	ev := run(t, s, rec, Exec{ID: "p1", Pipeline: "clv", Block: "daily_customer_metrics", Source: count, Partition: key})
	if ev.Kind != EventResult || len(ev.Result.Inputs) != 1 || ev.Result.Inputs[0].Draft {
		t.Fatalf("a prod cell read dev's draft: %+v %+v", ev.Result, ev.Error)
	}
	ev = run(t, s, rec, Exec{ID: "d2", Pipeline: "clv", Block: "daily_customer_metrics", Source: count, Partition: key, Env: dev})
	if ev.Kind != EventResult || !ev.Result.Inputs[0].Draft {
		t.Fatalf("a dev cell did not read dev's draft: %+v %+v", ev.Result, ev.Error)
	}
	if d := s.Drafts("clv", dev); len(d) != 2 {
		t.Fatalf("dev's drafts %+v: want raw_orders and daily_customer_metrics", d)
	}
	if d := s.Drafts("clv", ""); len(d) != 1 || d[0].Block != "daily_customer_metrics" {
		t.Fatalf("prod's drafts %+v: want its daily_customer_metrics only", d)
	}
	states, err := s.CellStates(context.Background(), "clv", key, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range states {
		if st.Block == "raw_orders" && st.Draft != nil {
			t.Fatalf("prod's cell states show dev's raw_orders draft: %+v", st.Draft)
		}
	}
}
