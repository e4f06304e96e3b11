package server

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A pipeline built from nothing through the API the notebook's forms call:
// create it with its partitioning and first block, add a SQL block above
// another, move, note, rename, delete; every step leaves files a person
// would have written.
func TestNotebookStructureFromNothing(t *testing.T) {
	e := newEnv(t)
	read := func(rel string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(e.dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	gone := func(rel string) {
		t.Helper()
		if _, err := os.Stat(filepath.Join(e.dir, filepath.FromSlash(rel))); !os.IsNotExist(err) {
			t.Fatalf("%s still exists (%v)", rel, err)
		}
	}

	// Bad settings: 400 naming the field, nothing written.
	for _, tc := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"id": "sales", "partitions": map[string]string{"interval": "day", "timezone": "Mars/Olympus"}}, "Mars/Olympus"},
		{map[string]any{"id": "sales", "partitions": map[string]string{"interval": "fortnight"}}, "partitions.interval"},
		{map[string]any{"id": "sales", "block": map[string]string{"id": "Orders"}}, "block.id"},
		{map[string]any{"id": "sales", "block": map[string]string{"id": "orders", "kind": "python"}}, "python"},
	} {
		resp, data := e.request(http.MethodPost, "/api/v1/pipelines", tc.body)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(apiError(t, data).Message, tc.want) {
			t.Fatalf("%v: %d %s", tc.body, resp.StatusCode, data)
		}
		gone("pipelines/sales.yaml")
	}

	var pv pipelineView
	e.call(http.MethodPost, "/api/v1/pipelines", map[string]any{"id": "sales", "description": "Sales by hour",
		"partitions": map[string]string{"interval": "hour", "timezone": "Asia/Kolkata", "start": "2024-01-01"},
		"block":      map[string]string{"id": "orders", "kind": "go"}}, http.StatusCreated, &pv)
	if pv.Partitions.Interval != "hour" || pv.Partitions.Timezone != "Asia/Kolkata" || len(pv.Blocks) != 1 || !pv.Runnable {
		t.Fatalf("created %+v", pv)
	}
	if !strings.Contains(read("blocks/orders/orders.go"), "func Load(") {
		t.Fatal("first block has no Load template")
	}

	// A SQL block appended, then a Go block inserted above it.
	var bd blockDetail
	e.call(http.MethodPost, "/api/v1/pipelines/sales/blocks", map[string]any{"id": "totals", "kind": "sql", "upstream": []string{"orders"}}, http.StatusCreated, &bd)
	e.call(http.MethodPost, "/api/v1/pipelines/sales/blocks", map[string]any{"id": "cleaned", "kind": "go", "upstream": []string{"orders"}, "before": "totals"}, http.StatusCreated, &bd)
	e.call(http.MethodGet, "/api/v1/pipelines/sales", nil, http.StatusOK, &pv)
	if strings.Join(pv.Order, ",") != "orders,cleaned,totals" || !pv.Runnable {
		t.Fatalf("order %v problems %+v", pv.Order, pv.Problems)
	}

	// Moves: above a block it reads is refused; otherwise the file's order changes.
	resp, data := e.request(http.MethodPost, "/api/v1/pipelines/sales/blocks/totals/move", map[string]string{"before": "orders"})
	if resp.StatusCode != http.StatusConflict || !strings.Contains(apiError(t, data).Message, "totals reads orders") {
		t.Fatalf("move above its upstream: %d %s", resp.StatusCode, data)
	}
	e.call(http.MethodPost, "/api/v1/pipelines/sales/blocks/totals/move", map[string]string{"before": "cleaned"}, http.StatusOK, &bd)
	e.call(http.MethodGet, "/api/v1/pipelines/sales", nil, http.StatusOK, &pv)
	if strings.Join(pv.Order, ",") != "orders,totals,cleaned" {
		t.Fatalf("order after move %v", pv.Order)
	}

	// A note: markdown above the cell, kept in the pipeline file.
	e.call(http.MethodPut, "/api/v1/pipelines/sales/blocks/totals/note", map[string]string{"note": "## Totals\n\nOne row per hour."}, http.StatusOK, &bd)
	if bd.Note != "## Totals\n\nOne row per hour." || !strings.Contains(read("pipelines/sales.yaml"), "    note: |-\n      ## Totals\n") {
		t.Fatalf("note %q in\n%s", bd.Note, read("pipelines/sales.yaml"))
	}

	// A note after the last block: end_note of the pipeline file, in the pipeline's view.
	e.call(http.MethodPut, "/api/v1/pipelines/sales/note", map[string]string{"note": "## Next\n\nShip the totals."}, http.StatusOK, &pv)
	if pv.EndNote != "## Next\n\nShip the totals." || !strings.HasSuffix(read("pipelines/sales.yaml"), "end_note: |-\n  ## Next\n\n  Ship the totals.\n") || !pv.Runnable {
		t.Fatalf("end note %q (problems %+v) in\n%s", pv.EndNote, pv.Problems, read("pipelines/sales.yaml"))
	}
	if resp, data := e.request(http.MethodPut, "/api/v1/pipelines/sales/note", map[string]string{}); resp.StatusCode != http.StatusBadRequest || !strings.Contains(apiError(t, data).Message, `want {"note"`) {
		t.Fatalf("a body without note: %d %s", resp.StatusCode, data)
	}
	e.call(http.MethodPut, "/api/v1/pipelines/nope/note", map[string]string{"note": "x"}, http.StatusNotFound, nil)

	// Rename: the Go folder, its package clause and the upstream lists follow;
	// the SQL reading it names the new relation.
	e.call(http.MethodPost, "/api/v1/pipelines/sales/blocks/orders/rename", map[string]string{"id": "src_orders"}, http.StatusOK, &bd)
	if bd.File != "blocks/src_orders/src_orders.go" || !strings.HasPrefix(bd.Source, "package src_orders\n") {
		t.Fatalf("renamed %+v\n%s", bd.blockView, bd.Source)
	}
	gone("blocks/orders")
	if sql := read("blocks/totals.sql"); !strings.Contains(sql, "FROM src_orders") {
		t.Fatalf("downstream SQL not renamed:\n%s", sql)
	}
	e.call(http.MethodGet, "/api/v1/pipelines/sales", nil, http.StatusOK, &pv)
	if !pv.Runnable || strings.Join(pv.Order, ",") != "src_orders,totals,cleaned" {
		t.Fatalf("after rename: %v %+v", pv.Order, pv.Problems)
	}
	e.call(http.MethodPost, "/api/v1/pipelines/sales/blocks/totals/rename", map[string]string{"id": "cleaned"}, http.StatusConflict, nil)

	// Rename the pipeline, then delete it with its own block files.
	e.call(http.MethodPost, "/api/v1/pipelines/sales/rename", map[string]string{"id": "hourly_sales"}, http.StatusOK, &pv)
	gone("pipelines/sales.yaml")
	var plan deletePlan
	e.call(http.MethodGet, "/api/v1/pipelines/hourly_sales/delete-plan?blocks=true", nil, http.StatusOK, &plan)
	if strings.Join(plan.Removes, ",") != "pipelines/hourly_sales.yaml,blocks/src_orders/src_orders.go,blocks/totals.sql,blocks/cleaned/cleaned.go" || len(plan.Keeps) != 0 {
		t.Fatalf("plan %+v", plan)
	}
	e.call(http.MethodDelete, "/api/v1/pipelines/hourly_sales?blocks=true", nil, http.StatusNoContent, nil)
	for _, f := range []string{"pipelines/hourly_sales.yaml", "blocks/src_orders", "blocks/totals.sql", "blocks/cleaned"} {
		gone(f)
	}
	// The demo pipeline is untouched.
	e.call(http.MethodGet, "/api/v1/pipelines/clv", nil, http.StatusOK, &pv)
	if !pv.Runnable || len(pv.Blocks) != 7 {
		t.Fatalf("clv after: %+v", pv.Problems)
	}
}
