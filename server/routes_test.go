package server

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
)

func TestPipelineCRUD(t *testing.T) {
	e := newEnv(t)
	var list struct {
		Pipelines []pipelineSummary `json:"pipelines"`
		Problems  []project.Problem `json:"problems"`
	}
	e.call(http.MethodGet, "/api/v1/pipelines", nil, http.StatusOK, &list)
	if len(list.Pipelines) != 1 || list.Pipelines[0].ID != "clv" || !list.Pipelines[0].Runnable || list.Pipelines[0].Blocks != 7 {
		t.Fatalf("list %+v", list)
	}

	var pv pipelineView
	e.call(http.MethodGet, "/api/v1/pipelines/clv", nil, http.StatusOK, &pv)
	if pv.Partitions.Interval != "day" || pv.Partitions.Timezone != "America/New_York" || len(pv.Blocks) != 7 ||
		pv.Order[0] != "raw_orders" || len(pv.Edges) != 7 || len(pv.Problems) != 0 || !strings.Contains(pv.YAML, "raw_orders") {
		t.Fatalf("view %+v", pv)
	}
	original := pv.YAML

	t.Run("YAML that does not parse is refused and not written", func(t *testing.T) {
		resp, data := e.request(http.MethodPut, "/api/v1/pipelines/clv", "blocks:\n  - id: a\n   upstream: [\n")
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("status %d: %s", resp.StatusCode, data)
		}
		ae := apiError(t, data)
		probs, _ := ae.Details.([]any)
		if ae.Code != CodeInvalidYAML || len(probs) != 1 {
			t.Fatalf("error %+v", ae)
		}
		p := probs[0].(map[string]any)
		if p["file"] != "pipelines/clv.yaml" || p["line"] == nil || p["message"] == "" {
			t.Fatalf("problem %v", p)
		}
		got, _ := os.ReadFile(filepath.Join(e.dir, "pipelines", "clv.yaml"))
		if string(got) != original {
			t.Fatal("the file was written")
		}
	})

	t.Run("semantic problems are saved and reported", func(t *testing.T) {
		broken := strings.Replace(original, "upstream: [daily_customer_metrics]\n  - id: segments", "upstream: [daily_customer_metrix]\n  - id: segments", 1)
		if broken == original {
			t.Fatal("fixture did not change")
		}
		var pv pipelineView
		e.call(http.MethodPut, "/api/v1/pipelines/clv", map[string]string{"yaml": broken}, http.StatusOK, &pv)
		if pv.Runnable || len(pv.Problems) == 0 || pv.YAML != broken {
			t.Fatalf("saved view %+v", pv)
		}
		p := pv.Problems[0]
		if p.File != "pipelines/clv.yaml" || p.Line == 0 || p.Field == "" || !strings.Contains(p.Message, "daily_customer_metrix") {
			t.Fatalf("problem %+v", p)
		}
		// A broken pipeline cannot run: 422 with the problems.
		resp, data := e.request(http.MethodPost, "/api/v1/pipelines/clv/runs", map[string]string{"partition": "2024-03-10"})
		if resp.StatusCode != http.StatusUnprocessableEntity || apiError(t, data).Code != CodeInvalidPipeline {
			t.Fatalf("run of a broken pipeline: %d %s", resp.StatusCode, data)
		}
		e.call(http.MethodPut, "/api/v1/pipelines/clv", original, http.StatusOK, &pv)
		if !pv.Runnable {
			t.Fatalf("restored pipeline has problems: %+v", pv.Problems)
		}
	})

	t.Run("create, conflict, delete", func(t *testing.T) {
		var pv pipelineView
		e.call(http.MethodPost, "/api/v1/pipelines", map[string]string{"id": "sales"}, http.StatusCreated, &pv)
		if pv.ID != "sales" || pv.Partitions.Interval != "day" || len(pv.Problems) != 0 {
			t.Fatalf("created %+v", pv)
		}
		resp, data := e.request(http.MethodPost, "/api/v1/pipelines", map[string]string{"id": "sales"})
		if resp.StatusCode != http.StatusConflict || apiError(t, data).Code != CodeConflict {
			t.Fatalf("duplicate: %d %s", resp.StatusCode, data)
		}
		resp, data = e.request(http.MethodPost, "/api/v1/pipelines", map[string]string{"id": "Sales Report"})
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("bad id: %d %s", resp.StatusCode, data)
		}
		resp, data = e.request(http.MethodPost, "/api/v1/pipelines", map[string]any{"id": "x", "colour": "red"})
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(apiError(t, data).Message, "colour") {
			t.Fatalf("unknown field: %d %s", resp.StatusCode, data)
		}
		e.call(http.MethodDelete, "/api/v1/pipelines/sales", nil, http.StatusNoContent, nil)
		resp, data = e.request(http.MethodGet, "/api/v1/pipelines/sales", nil)
		if resp.StatusCode != http.StatusNotFound || apiError(t, data).Code != CodeNotFound {
			t.Fatalf("deleted pipeline: %d %s", resp.StatusCode, data)
		}
		e.call(http.MethodDelete, "/api/v1/pipelines/sales", nil, http.StatusNotFound, nil)
	})
}

func TestBlockCRUD(t *testing.T) {
	e := newEnv(t)
	var bd blockDetail
	e.call(http.MethodGet, "/api/v1/pipelines/clv/blocks/raw_orders", nil, http.StatusOK, &bd)
	if bd.Kind != "go" || bd.File != "blocks/raw_orders/raw_orders.go" || bd.Entry != "Load" || !strings.Contains(bd.Source, "func Load") {
		t.Fatalf("block %+v", bd.blockView)
	}
	var list struct {
		Blocks []blockView `json:"blocks"`
	}
	e.call(http.MethodGet, "/api/v1/pipelines/clv/blocks", nil, http.StatusOK, &list)
	if len(list.Blocks) != 7 {
		t.Fatalf("%d blocks", len(list.Blocks))
	}
	e.call(http.MethodGet, "/api/v1/pipelines/clv/blocks/nope", nil, http.StatusNotFound, nil)
	e.call(http.MethodGet, "/api/v1/pipelines/nope/blocks/raw_orders", nil, http.StatusNotFound, nil)

	t.Run("create a Go Transform", func(t *testing.T) {
		var bd blockDetail
		e.call(http.MethodPost, "/api/v1/pipelines/clv/blocks", map[string]any{"id": "top_customers", "kind": "go", "upstream": []string{"clv"}}, http.StatusCreated, &bd)
		if bd.File != "blocks/top_customers/top_customers.go" || bd.Entry != "Transform" || len(bd.Problems) != 0 {
			t.Fatalf("created %+v problems %+v", bd.blockView, bd.Problems)
		}
		if _, err := os.Stat(filepath.Join(e.dir, "blocks", "top_customers", "top_customers.go")); err != nil {
			t.Fatal(err)
		}
		var pv pipelineView
		e.call(http.MethodGet, "/api/v1/pipelines/clv", nil, http.StatusOK, &pv)
		if !strings.Contains(pv.YAML, "- id: top_customers\n    upstream: [clv]") || !pv.Runnable {
			t.Fatalf("pipeline file %s problems %+v", pv.YAML, pv.Problems)
		}
		e.call(http.MethodPost, "/api/v1/pipelines/clv/blocks", map[string]any{"id": "top_customers"}, http.StatusConflict, nil)
	})

	t.Run("save source, problems reported", func(t *testing.T) {
		// Two tables for one upstream: saved, and the mismatch is reported.
		src := "package top_customers\n\nimport \"github.com/stratahq/strata/blocks/sdk\"\n\nfunc Transform(ctx *sdk.Context, a, b *sdk.Table) (*sdk.Table, error) {\n\treturn a, nil\n}\n"
		var bd blockDetail
		e.call(http.MethodPut, "/api/v1/pipelines/clv/blocks/top_customers", map[string]string{"source": src}, http.StatusOK, &bd)
		if bd.Source != src {
			t.Fatalf("source %q", bd.Source)
		}
		var pv pipelineView
		e.call(http.MethodGet, "/api/v1/pipelines/clv", nil, http.StatusOK, &pv)
		if pv.Runnable || !strings.Contains(pv.Problems[0].Message, "Transform takes 2 tables") {
			t.Fatalf("problems %+v", pv.Problems)
		}
		fixed := strings.Replace(src, "a, b *sdk.Table", "a *sdk.Table", 1)
		e.call(http.MethodPut, "/api/v1/pipelines/clv/blocks/top_customers", fixed, http.StatusOK, &bd)
		e.call(http.MethodGet, "/api/v1/pipelines/clv", nil, http.StatusOK, &pv)
		if !pv.Runnable {
			t.Fatalf("still broken: %+v", pv.Problems)
		}
	})

	t.Run("create SQL, delete", func(t *testing.T) {
		var bd blockDetail
		e.call(http.MethodPost, "/api/v1/pipelines/clv/blocks", map[string]any{"id": "order_count", "kind": "sql", "upstream": []string{"raw_orders"},
			"source": "SELECT count(*) AS n FROM raw_orders"}, http.StatusCreated, &bd)
		if bd.File != "blocks/order_count.sql" || bd.Kind != "sql" || bd.Source != "SELECT count(*) AS n FROM raw_orders" {
			t.Fatalf("sql block %+v", bd)
		}
		resp, data := e.request(http.MethodDelete, "/api/v1/pipelines/clv/blocks/clv", nil)
		if resp.StatusCode != http.StatusConflict || !strings.Contains(apiError(t, data).Message, "top_customers") {
			t.Fatalf("delete of an upstream: %d %s", resp.StatusCode, data)
		}
		e.call(http.MethodDelete, "/api/v1/pipelines/clv/blocks/order_count", nil, http.StatusNoContent, nil)
		e.call(http.MethodDelete, "/api/v1/pipelines/clv/blocks/top_customers", nil, http.StatusNoContent, nil)
		for _, f := range []string{"blocks/order_count.sql", "blocks/top_customers"} {
			if _, err := os.Stat(filepath.Join(e.dir, f)); !os.IsNotExist(err) {
				t.Errorf("%s still exists (%v)", f, err)
			}
		}
		var pv pipelineView
		e.call(http.MethodGet, "/api/v1/pipelines/clv", nil, http.StatusOK, &pv)
		if len(pv.Blocks) != 7 || !pv.Runnable {
			t.Fatalf("after deletes: %d blocks, problems %+v", len(pv.Blocks), pv.Problems)
		}
	})
}

func TestRunsAndProducts(t *testing.T) {
	e := newEnv(t)
	c := e.connect()

	var started map[string]string
	e.call(http.MethodPost, "/api/v1/pipelines/clv/runs", map[string]string{"partition": "2024-03-11"}, http.StatusAccepted, &started)
	id := started["run_id"]
	if id == "" || started["partition"] != "2024-03-11" {
		t.Fatalf("started %v", started)
	}
	// Progress goes to subscribers: the run's own topic sees its final event.
	c.send(ClientMessage{Type: MsgSubscribe, ID: "sub", Topic: "run:" + id})
	c.await("subscribed", 5*time.Second, func(m Message) bool { return m.Type == MsgSubscribed && m.ID == "sub" })
	var detail engine.RunDetail
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, data := e.request(http.MethodGet, "/api/v1/runs/"+id, nil)
		if resp.StatusCode == http.StatusOK {
			e.call(http.MethodGet, "/api/v1/runs/"+id, nil, http.StatusOK, &detail)
			if detail.State.Final() {
				break
			}
		} else if resp.StatusCode != http.StatusNotFound {
			t.Fatalf("GET run: %d %s", resp.StatusCode, data)
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s did not finish: %+v", id, detail)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if detail.State != engine.StateSucceeded || len(detail.Blocks) < 7 {
		t.Fatalf("run %+v", detail)
	}

	var res engine.RunResult
	e.call(http.MethodPost, "/api/v1/pipelines/clv/runs?wait=true", map[string]string{"partition": "2024-03-10"}, http.StatusOK, &res)
	if res.State != engine.StateSucceeded || res.Partition != "2024-03-10" {
		t.Fatalf("run %+v", res)
	}
	e.call(http.MethodPost, "/api/v1/pipelines/clv/runs?wait=true", map[string]string{"partition": "2024-03-10"}, http.StatusOK, &res)
	e.call(http.MethodPost, "/api/v1/pipelines/clv/runs", map[string]string{"partition": "yesterday"}, http.StatusBadRequest, nil)
	e.call(http.MethodPost, "/api/v1/pipelines/nope/runs", map[string]string{}, http.StatusNotFound, nil)

	var runs struct {
		Runs []engine.RunSummary `json:"runs"`
	}
	e.call(http.MethodGet, "/api/v1/runs?pipeline=clv&limit=10", nil, http.StatusOK, &runs)
	if len(runs.Runs) != 3 {
		t.Fatalf("%d runs", len(runs.Runs))
	}
	e.call(http.MethodGet, "/api/v1/runs/run_nope", nil, http.StatusNotFound, nil)
	// Backfill run ids hold ':', which browsers escape: the id arrives decoded.
	if resp, data := e.request(http.MethodGet, "/api/v1/runs/bf_none%3A2024-03-10", nil); resp.StatusCode != http.StatusNotFound || !strings.Contains(string(data), `bf_none:2024-03-10`) {
		t.Fatalf("escaped run id: %d %s", resp.StatusCode, data)
	}

	var products struct {
		Products []productView `json:"products"`
	}
	e.call(http.MethodGet, "/api/v1/products", nil, http.StatusOK, &products)
	var dcm *productView
	for i, p := range products.Products {
		if p.Name == "daily_customer_metrics" {
			dcm = &products.Products[i]
		}
	}
	if dcm == nil || dcm.Partitions != 2 || !dcm.Global || dcm.Pipeline != "clv" {
		t.Fatalf("products %+v", products)
	}

	var parts struct {
		Partitions []partitionView `json:"partitions"`
	}
	e.call(http.MethodGet, "/api/v1/products/daily_customer_metrics/partitions", nil, http.StatusOK, &parts)
	if len(parts.Partitions) != 2 || parts.Partitions[0].Key != "2024-03-10" || parts.Partitions[0].Current != 2 || len(parts.Partitions[0].Versions) != 2 {
		t.Fatalf("partitions %+v", parts)
	}

	var prev struct {
		Product  string `json:"product"`
		Timezone string `json:"timezone"`
		Preview  struct {
			Columns  []map[string]string `json:"columns"`
			Rows     [][]any             `json:"rows"`
			RowCount int                 `json:"row_count"`
		} `json:"preview"`
	}
	e.call(http.MethodGet, "/api/v1/products/daily_customer_metrics/preview?last=2&limit=10000", nil, http.StatusOK, &prev)
	all := prev.Preview.RowCount
	if all < 300 || len(prev.Preview.Rows) != all {
		t.Fatalf("last 2: %d rows, %d returned", all, len(prev.Preview.Rows))
	}
	// row_count is the window's size, whatever the limit returns.
	e.call(http.MethodGet, "/api/v1/products/daily_customer_metrics/preview?last=2&limit=5", nil, http.StatusOK, &prev)
	if prev.Timezone != "America/New_York" || len(prev.Preview.Rows) != 5 || prev.Preview.RowCount != all || prev.Preview.Columns[0]["name"] != "_partition" {
		t.Fatalf("preview with limit 5: %d rows returned, row_count %d (want %d)", len(prev.Preview.Rows), prev.Preview.RowCount, all)
	}
	e.call(http.MethodGet, "/api/v1/products/daily_customer_metrics/preview?from=2024-03-11&to=2024-03-11", nil, http.StatusOK, &prev)
	if prev.Preview.Rows[0][0] != "2024-03-11" {
		t.Fatalf("range %+v", prev.Preview.Rows[0])
	}
	e.call(http.MethodGet, "/api/v1/products/daily_customer_metrics/preview?period=2024-03&version=1", nil, http.StatusBadRequest, nil)
	e.call(http.MethodGet, "/api/v1/products/daily_customer_metrics/preview?partition=2024-13-40", nil, http.StatusBadRequest, nil)
	e.call(http.MethodGet, "/api/v1/products/daily_customer_metrics/preview?limit=0", nil, http.StatusBadRequest, nil)
	e.call(http.MethodGet, "/api/v1/products/nope/preview", nil, http.StatusNotFound, nil)
	e.call(http.MethodGet, "/api/v1/products/nope/partitions", nil, http.StatusNotFound, nil)
	e.call(http.MethodGet, "/api/v1/products/clv__weekly_customer_rollup/preview?period=2024-03", nil, http.StatusOK, &prev)
	if prev.Preview.Rows[0][0] != "2024-W10" {
		t.Fatalf("weekly preview %+v", prev.Preview.Rows)
	}

	var rb map[string]any
	e.call(http.MethodPost, "/api/v1/products/daily_customer_metrics/rollback", map[string]any{"partition": "2024-03-10", "version": 1}, http.StatusOK, &rb)
	e.call(http.MethodGet, "/api/v1/products/daily_customer_metrics/partitions", nil, http.StatusOK, &parts)
	if parts.Partitions[0].Current != 1 {
		t.Fatalf("after rollback: %+v", parts.Partitions[0])
	}
	e.call(http.MethodGet, "/api/v1/products/daily_customer_metrics/preview?partition=2024-03-10&version=2&limit=1", nil, http.StatusOK, &prev)
	resp, data := e.request(http.MethodPost, "/api/v1/products/daily_customer_metrics/rollback", map[string]any{"partition": "2024-03-10", "version": 99})
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("rollback to a missing version: %d %s", resp.StatusCode, data)
	}
	e.call(http.MethodPost, "/api/v1/products/daily_customer_metrics/rollback", map[string]any{"partition": "2024-03-10"}, http.StatusBadRequest, nil)

	// The subscription saw the first run's events, ending with its final state.
	m, _ := c.await("run event", 10*time.Second, func(m Message) bool {
		return m.Type == MsgEvent && m.Notice.Event != nil && m.Notice.Event.Block == "" && m.Notice.Event.State.Final()
	})
	if m.Topic != "run:"+id || m.Notice.Event.RunID != id {
		t.Fatalf("event %+v", m)
	}
}

func TestBackfillsAPI(t *testing.T) {
	e := newEnv(t)
	c := e.connect()
	spec := map[string]any{"pipeline": "clv", "from": "2024-03-04", "to": "2024-03-06"}
	var plan engine.Plan
	e.call(http.MethodPost, "/api/v1/backfills/plan", spec, http.StatusOK, &plan)
	if plan.Total != 3 || plan.ToRun != 3 || len(plan.Partitions) != 3 {
		t.Fatalf("plan %+v", plan)
	}
	e.call(http.MethodPost, "/api/v1/backfills/plan", map[string]any{"pipeline": "clv", "from": "2024-03-06"}, http.StatusBadRequest, nil)
	e.call(http.MethodPost, "/api/v1/backfills/plan", map[string]any{"pipeline": "clv", "from": "2024-03-04", "to": "2024-03-06", "reprocess": "everything"}, http.StatusBadRequest, nil)
	e.call(http.MethodPost, "/api/v1/backfills/plan", map[string]any{"pipeline": "nope", "from": "2024-03-04", "to": "2024-03-06"}, http.StatusNotFound, nil)

	var st engine.BackfillStatus
	e.call(http.MethodPost, "/api/v1/backfills", spec, http.StatusCreated, &st)
	if st.ID == "" || st.Pipeline != "clv" {
		t.Fatalf("launched %+v", st)
	}
	c.send(ClientMessage{Type: MsgSubscribe, ID: "bf", Topic: "backfill:" + st.ID})
	deadline := time.Now().Add(120 * time.Second)
	for !st.State.Final() {
		if time.Now().After(deadline) {
			t.Fatalf("backfill did not finish: %+v", st)
		}
		time.Sleep(200 * time.Millisecond)
		e.call(http.MethodGet, "/api/v1/backfills/"+st.ID, nil, http.StatusOK, &st)
	}
	if st.State != engine.StateSucceeded {
		t.Fatalf("backfill %+v", st)
	}
	var page struct {
		Partitions []engine.PartitionStatus `json:"partitions"`
		Total      int                      `json:"total"`
	}
	e.call(http.MethodGet, "/api/v1/backfills/"+st.ID+"/partitions?state=succeeded&limit=2", nil, http.StatusOK, &page)
	if len(page.Partitions) != 2 || page.Total < 3 {
		t.Fatalf("partitions %+v", page)
	}
	e.call(http.MethodGet, "/api/v1/backfills/"+st.ID+"/partitions?state=sideways", nil, http.StatusBadRequest, nil)
	// The grid's filter by dimension values: clv has none to filter by.
	for _, q := range []string{"where=region=eu", "where=region", "where==eu", "where=region=eu,"} {
		e.call(http.MethodGet, "/api/v1/backfills/"+st.ID+"/partitions?"+q, nil, http.StatusBadRequest, nil)
	}
	var list struct {
		Backfills []engine.BackfillStatus `json:"backfills"`
	}
	e.call(http.MethodGet, "/api/v1/backfills", nil, http.StatusOK, &list)
	if len(list.Backfills) != 1 {
		t.Fatalf("backfills %+v", list)
	}
	var runs struct {
		Runs []engine.RunSummary `json:"runs"`
	}
	e.call(http.MethodGet, "/api/v1/runs?backfill="+st.ID, nil, http.StatusOK, &runs)
	if len(runs.Runs) < 3 {
		t.Fatalf("runs of the backfill: %+v", runs)
	}
	e.call(http.MethodPost, "/api/v1/backfills/"+st.ID+"/pause", nil, http.StatusConflict, nil)
	e.call(http.MethodPost, "/api/v1/backfills/"+st.ID+"/cancel", nil, http.StatusConflict, nil)
	e.call(http.MethodPost, "/api/v1/backfills/bf_nope/retry", nil, http.StatusNotFound, nil)
	e.call(http.MethodGet, "/api/v1/backfills/bf_nope", nil, http.StatusNotFound, nil)
	var retried engine.BackfillStatus
	e.call(http.MethodPost, "/api/v1/backfills/"+st.ID+"/retry", nil, http.StatusOK, &retried)

	m, _ := c.await("backfill progress", 10*time.Second, func(m Message) bool {
		return m.Type == MsgEvent && m.Topic == "backfill:"+st.ID
	})
	if m.Notice == nil {
		t.Fatalf("event %+v", m)
	}
}

func TestHealthzAndMetrics(t *testing.T) {
	e := newEnv(t)
	resp, data := e.request(http.MethodGet, "/healthz", nil, "Authorization", "")
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(data), `"ok"`) {
		t.Fatalf("healthz %d %s", resp.StatusCode, data)
	}
	c := e.connect()
	c.hello("metrics")
	c.execute("raw_orders", trivialSource, "2024-03-10", 30*time.Second)
	e.call(http.MethodPost, "/api/v1/pipelines/clv/runs?wait=true", map[string]string{"partition": "2024-03-10"}, http.StatusOK, nil)
	want := []string{
		`strata_block_runs_total{state="succeeded"} 9`,
		`strata_run_duration_seconds_bucket{le="+Inf"} 1`,
		"strata_run_duration_seconds_count 1",
		"strata_kernel_pool_size 2",
		"strata_kernel_pool_running",
		"strata_kernel_pool_idle",
		`strata_editor_sessions{state="idle"} 1`,
		"strata_editor_sessions_connected 1",
		`strata_editor_executions_total{outcome="ok"} 1`,
		"strata_websocket_connections 1",
		"# TYPE strata_backfill_partitions gauge",
	}
	// The engine hub delivers asynchronously: wait for every figure, with a
	// bound long enough for a loaded machine (it was 2.5 s for one of them).
	var text string
	var missing []string
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		resp, data = e.request(http.MethodGet, "/metrics", nil)
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
			t.Fatalf("metrics %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		text, missing = string(data), nil
		for _, w := range want {
			if !strings.Contains(text, w) {
				missing = append(missing, w)
			}
		}
		if len(missing) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("metrics lack %q after 60s:\n%s", missing, text)
		}
	}
}

func TestStatic(t *testing.T) {
	t.Run("not built", func(t *testing.T) {
		e := newEnv(t)
		resp, data := e.request(http.MethodGet, "/", nil, "Authorization", "")
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(data), "not built") || !strings.Contains(string(data), "/api/v1/pipelines") {
			t.Fatalf("%d %s", resp.StatusCode, data)
		}
	})
	ui := fstest.MapFS{
		"index.html":         {Data: []byte("<!doctype html><title>Strata UI</title>")},
		"assets/app-1a2b.js": {Data: []byte("console.log(1)")},
	}
	e := newEnv(t, func(c *Config) { c.UI = ui })
	for _, tc := range []struct {
		path, want string
		status     int
	}{
		{"/", "Strata UI", http.StatusOK},
		{"/assets/app-1a2b.js", "console.log", http.StatusOK},
		{"/pipelines/clv", "Strata UI", http.StatusOK}, // a client-side route
		{"/assets/missing.js", `"not_found"`, http.StatusNotFound},
		{"/assets", "Strata UI", http.StatusOK}, // directories are never listed
		{"/assets/..%2F..%2Fgo.mod", `"bad_path"`, http.StatusBadRequest},
	} {
		resp, data := e.request(http.MethodGet, tc.path, nil, "Authorization", "")
		if resp.StatusCode != tc.status || !strings.Contains(string(data), tc.want) {
			t.Errorf("GET %s: %d %s", tc.path, resp.StatusCode, data)
		}
	}
}
