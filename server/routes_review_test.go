package server

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// The review flow over HTTP on the demo: a backfill staged for review whose
// block now drops half the customers fails the rows_kept gate; promote is a
// 409 naming the gate until overridden; the partition diff is keyed; a
// rollback restores the data and a second one is refused.
func TestReviewAPI(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	wait := func(spec engine.BackfillSpec) *engine.BackfillStatus {
		st, err := e.eng.Launch(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		if st, err = e.eng.Wait(ctx, st.ID); err != nil {
			t.Fatal(err)
		}
		return st
	}
	wait(engine.BackfillSpec{Pipeline: "clv", From: "2024-03-04", To: "2024-03-05"})
	sqlFile := filepath.Join(e.dir, "blocks", "daily_customer_metrics.sql")
	src, err := os.ReadFile(sqlFile)
	if err != nil {
		t.Fatal(err)
	}
	odd := strings.Replace(string(src), "GROUP BY customer_id", "AND customer_id % 2 = 1\nGROUP BY customer_id", 1)
	if err := os.WriteFile(sqlFile, []byte(odd), 0o644); err != nil {
		t.Fatal(err)
	}
	proj, _ := project.Load(e.dir)
	e.eng.SetProject(proj)
	st := wait(engine.BackfillSpec{Pipeline: "clv", From: "2024-03-04", To: "2024-03-05", Reprocess: engine.ReprocessAll, Publish: engine.PublishReview})
	if st.State != engine.StateReview {
		t.Fatalf("review backfill: %s %s", st.State, st.Message)
	}
	var rv engine.BackfillReview
	e.call(http.MethodGet, "/api/v1/backfills/"+st.ID+"/review", nil, http.StatusOK, &rv)
	if rv.GatesPassed || rv.Staged == 0 || len(rv.Products) == 0 {
		t.Fatalf("review: %+v", rv)
	}
	var d warehouse.PartitionDiff
	e.call(http.MethodGet, "/api/v1/backfills/"+st.ID+"/diff?product=daily_customer_metrics&partition=2024-03-04&rows=5", nil, http.StatusOK, &d)
	if d.Counts.Removed == 0 || d.Counts.Changed != 0 || len(d.Rows) != 5 || d.Keys[0] != "customer_id" {
		t.Fatalf("partition diff: %+v", d)
	}
	e.call(http.MethodGet, "/api/v1/backfills/"+st.ID+"/diff?product=daily_customer_metrics&partition=2019-01-01", nil, http.StatusNotFound, nil)
	_, body := e.request(http.MethodPost, "/api/v1/backfills/"+st.ID+"/promote", map[string]any{})
	if ae := apiError(t, body); ae.Code != CodeConflict || !strings.Contains(ae.Message, "rows_kept") {
		t.Fatalf("promote with a failed gate: %s", body)
	}
	var res engine.PromoteResult
	e.call(http.MethodPost, "/api/v1/backfills/"+st.ID+"/promote", map[string]any{"override": true}, http.StatusOK, &res)
	if res.State != engine.StateSucceeded || len(res.Overridden) == 0 || res.By != "owner" {
		t.Fatalf("promote: %+v", res)
	}
	var pd warehouse.PartitionDiff
	e.call(http.MethodGet, "/api/v1/products/daily_customer_metrics/diff?partition=2024-03-04&rows=1", nil, http.StatusOK, &pd)
	if pd.From != 1 || pd.To != 2 || pd.Counts.Removed != d.Counts.Removed {
		t.Fatalf("product diff v1 -> v2: %+v", pd)
	}
	e.call(http.MethodPost, "/api/v1/backfills/"+st.ID+"/rollback", nil, http.StatusOK, nil)
	e.call(http.MethodPost, "/api/v1/backfills/"+st.ID+"/rollback", nil, http.StatusConflict, nil)
	e.call(http.MethodPost, "/api/v1/backfills/"+st.ID+"/discard", nil, http.StatusConflict, nil)
	e.call(http.MethodGet, "/api/v1/products/daily_customer_metrics/diff", nil, http.StatusBadRequest, nil)
}

// The review is pushed over the websocket: when a backfill becomes ready
// for review (to the pipeline's subscribers), and after a promote, a
// promote refused by newer work (a 409 review_conflict, not issue 10's
// publish conflict) and a rollback through HTTP (to the backfill's), with
// the summary, the gates, the newer partitions and the promotions as they
// are then.
func TestReviewPushedOverWebsocket(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	c := e.connect()
	c.send(ClientMessage{Type: MsgSubscribe, ID: "pl", Topic: "pipeline:clv"})
	c.await("subscribed", 10*time.Second, func(m Message) bool { return m.Type == MsgSubscribed && m.ID == "pl" })
	pushed := func(what string, match func(*engine.BackfillReview) bool) *engine.BackfillReview {
		t.Helper()
		m, _ := c.await(what, 60*time.Second, func(m Message) bool {
			return m.Type == MsgEvent && m.Notice != nil && m.Notice.Kind == engine.NoticeReview && m.Notice.Review != nil && match(m.Notice.Review)
		})
		return m.Notice.Review
	}
	seed, err := e.eng.Launch(ctx, engine.BackfillSpec{Pipeline: "clv", From: "2024-03-04", To: "2024-03-05"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.eng.Wait(ctx, seed.ID); err != nil {
		t.Fatal(err)
	}
	st, err := e.eng.Launch(ctx, engine.BackfillSpec{Pipeline: "clv", From: "2024-03-04", To: "2024-03-05", Reprocess: engine.ReprocessAll, Publish: engine.PublishReview})
	if err != nil {
		t.Fatal(err)
	}
	rv := pushed("review ready", func(r *engine.BackfillReview) bool { return r.Backfill.ID == st.ID })
	if rv.Backfill.State != engine.StateReview || rv.Staged == 0 || len(rv.Products) == 0 || len(rv.Gates) == 0 {
		t.Fatalf("pushed when ready: state %s, %d staged, %d products, %d gates", rv.Backfill.State, rv.Staged, len(rv.Products), len(rv.Gates))
	}
	c.send(ClientMessage{Type: MsgSubscribe, ID: "bf", Topic: "backfill:" + st.ID})
	c.await("subscribed", 10*time.Second, func(m Message) bool { return m.Type == MsgSubscribed && m.ID == "bf" })
	e.call(http.MethodPost, "/api/v1/backfills/"+st.ID+"/promote", map[string]any{"only": "2024-03-05"}, http.StatusOK, nil)
	rv = pushed("review after a partial promote", func(r *engine.BackfillReview) bool { return len(r.Promotions) == 1 })
	if rv.Backfill.State != engine.StateReview || rv.Staged == 0 || rv.Promotions[0].By != "owner" {
		t.Fatalf("pushed after promoting 2024-03-05: state %s, %d staged, promotions %+v", rv.Backfill.State, rv.Staged, rv.Promotions)
	}
	// Newer work in 2024-03-04: the promote of the rest is a review
	// conflict, with its own code and resolutions, and the pushed review
	// lists the partition; --skip-newer promotes nothing else then.
	if _, err := e.eng.Run(ctx, "clv", "2024-03-04", engine.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	_, body := e.request(http.MethodPost, "/api/v1/backfills/"+st.ID+"/promote", map[string]any{})
	ae := apiError(t, body)
	details, _ := ae.Details.(map[string]any)
	if ae.Code != CodeReviewConflict || details["op"] != "promote" || len(details["conflicts"].([]any)) == 0 || !strings.Contains(fmt.Sprint(details["resolve"]), "--skip-newer") {
		t.Fatalf("promote over newer work: %s", body)
	}
	rv = pushed("review after the refused promote", func(r *engine.BackfillReview) bool {
		for _, p := range r.Products {
			if len(p.Newer) > 0 {
				return true
			}
		}
		return false
	})
	if rv.Backfill.State != engine.StateReview || len(rv.Promotions) != 1 {
		t.Fatalf("pushed after the refused promote: state %s, %d promotions", rv.Backfill.State, len(rv.Promotions))
	}
	e.call(http.MethodPost, "/api/v1/backfills/"+st.ID+"/rollback", nil, http.StatusOK, nil)
	rv = pushed("review after the rollback", func(r *engine.BackfillReview) bool { return r.Backfill.State == engine.StateRolledBack })
	if len(rv.Promotions) != 1 {
		t.Fatalf("pushed after the rollback: %d promotions", len(rv.Promotions))
	}
}
