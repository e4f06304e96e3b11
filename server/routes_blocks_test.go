package server

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/engine"
)

// A block the pipeline file declares "kind: sql" before its file exists is
// saved as blocks/<id>.sql: the first save of the editor's SQL cell used to
// write blocks/<id>/<id>.go holding SQL, answer "saved", and leave the
// pipeline unable to run.
func TestSaveDeclaredSQLBlockWritesSQLFile(t *testing.T) {
	e := newEnv(t)
	var pv pipelineView
	e.call(http.MethodGet, "/api/v1/pipelines/clv", nil, http.StatusOK, &pv)
	yaml := strings.Replace(pv.YAML, "  - id: clv\n", "  - id: order_count\n    kind: sql\n    upstream: [raw_orders]\n  - id: clv\n", 1)
	if yaml == pv.YAML {
		t.Fatal("fixture did not change")
	}
	e.call(http.MethodPut, "/api/v1/pipelines/clv", map[string]string{"yaml": yaml}, http.StatusOK, &pv)

	src := "SELECT count(*) AS n FROM raw_orders\n"
	var bd blockDetail
	e.call(http.MethodPut, "/api/v1/pipelines/clv/blocks/order_count", map[string]string{"source": src}, http.StatusOK, &bd)
	if bd.File != "blocks/order_count.sql" || bd.Kind != "sql" || bd.Source != src || len(bd.Problems) != 0 {
		t.Fatalf("saved %+v problems %+v", bd.blockView, bd.Problems)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "blocks", "order_count", "order_count.go")); !os.IsNotExist(err) {
		t.Fatalf("a Go file was written for the SQL block (%v)", err)
	}
	e.call(http.MethodGet, "/api/v1/pipelines/clv", nil, http.StatusOK, &pv)
	if !pv.Runnable {
		t.Fatalf("pipeline not runnable after the save: %+v", pv.Problems)
	}
	res, err := e.eng.Run(context.Background(), "clv", "2024-03-06", engine.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.State != engine.StateSucceeded {
		t.Fatalf("run %s: %+v", res.State, res)
	}
	// And as an editor cell, from its saved text.
	c := e.connect()
	if final, _ := c.execute("order_count", src, "2024-03-06", 30*time.Second); final.Type != MsgResult {
		t.Fatalf("cell run after the save: %+v", final.Error)
	}

	// A kind asked for that contradicts the pipeline file is refused, not guessed.
	yaml = strings.Replace(yaml, "  - id: clv\n", "  - id: later\n    kind: sql\n  - id: clv\n", 1)
	e.call(http.MethodPut, "/api/v1/pipelines/clv", map[string]string{"yaml": yaml}, http.StatusOK, &pv)
	resp, data := e.request(http.MethodPut, "/api/v1/pipelines/clv/blocks/later?kind=go", map[string]string{"source": "package later\n"})
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(apiError(t, data).Message, "kind: sql") {
		t.Fatalf("contradicting kind: %d %s", resp.StatusCode, data)
	}
}
