package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/server/auth"
)

// TestEnvironmentsAPI: an editor creates dev and runs into it, but cannot
// run in prod nor promote; an operator promotes; prod serves nothing of
// dev's until then. Bad input answers 4xx with what was wrong.
func TestEnvironmentsAPI(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.NoTriggers = true })
	tokens := roleTokens(t, e)
	as := func(role auth.Role, method, path string, body any, want int, out any) []byte {
		t.Helper()
		resp, data := e.request(method, path, body, "Authorization", "Bearer "+tokens[role])
		if resp.StatusCode != want {
			t.Fatalf("%s %s as %s: %d, want %d: %s", method, path, role, resp.StatusCode, want, data)
		}
		if out != nil {
			if err := json.Unmarshal(data, out); err != nil {
				t.Fatal(err)
			}
		}
		return data
	}
	type envJSON struct {
		Name       string `json:"name"`
		CreatedBy  string `json:"created_by"`
		Partitions int    `json:"partitions"`
		Rows       int64  `json:"rows"`
	}
	var env envJSON
	as(auth.Editor, http.MethodPost, "/api/v1/envs", map[string]string{"name": "dev"}, http.StatusCreated, &env)
	if env.Name != "dev" || env.CreatedBy != "u-editor" || env.Partitions != 0 || env.Rows != 0 {
		t.Fatalf("created %+v", env)
	}
	for _, c := range []struct {
		method, path string
		body         any
		want         int
		code         string
	}{
		{http.MethodPost, "/api/v1/envs", map[string]string{"name": "dev"}, http.StatusConflict, CodeConflict},
		{http.MethodPost, "/api/v1/envs", map[string]string{"name": "Bad Name"}, http.StatusBadRequest, CodeBadRequest},
		{http.MethodPost, "/api/v1/envs", map[string]string{"name": "prod"}, http.StatusBadRequest, CodeBadRequest},
		{http.MethodGet, "/api/v1/envs/nope", nil, http.StatusNotFound, CodeNotFound},
		{http.MethodPost, "/api/v1/envs/nope/pipelines/clv/runs", map[string]string{}, http.StatusNotFound, CodeNotFound},
		{http.MethodPost, "/api/v1/envs/dev/promote", map[string]any{}, http.StatusConflict, CodeConflict}, // changes nothing yet
		{http.MethodPost, "/api/v1/backfills", map[string]any{"pipeline": "clv", "from": "2024-01-01", "to": "2024-01-02", "into": "env:dev"}, http.StatusBadRequest, CodeBadRequest},
		{http.MethodGet, "/api/v1/envs/dev/diff/rows?product=clv", nil, http.StatusBadRequest, CodeBadRequest},
	} {
		resp, data := e.request(c.method, c.path, c.body)
		if resp.StatusCode != c.want || apiError(t, data).Code != c.code {
			t.Fatalf("%s %s: %d %s, want %d %s", c.method, c.path, resp.StatusCode, data, c.want, c.code)
		}
	}

	// An editor builds in dev, not in prod.
	as(auth.Editor, http.MethodPost, "/api/v1/pipelines/clv/runs", map[string]string{"partition": "2024-01-02"}, http.StatusForbidden, nil)
	var run struct {
		State string `json:"state"`
	}
	as(auth.Editor, http.MethodPost, "/api/v1/envs/dev/pipelines/clv/runs?wait=true", map[string]string{"partition": "2024-01-02", "engine": "interp"}, http.StatusOK, &run)
	if run.State != "succeeded" {
		t.Fatalf("run into dev: %s", run.State)
	}
	as(auth.Viewer, http.MethodGet, "/api/v1/envs/dev", nil, http.StatusOK, &env)
	if env.Partitions == 0 {
		t.Fatalf("dev after a run into it: %+v", env)
	}
	// Prod has no such partition; dev's preview has it.
	as(auth.Viewer, http.MethodGet, "/api/v1/products/clv__clv/preview?partition=2024-01-02", nil, http.StatusNotFound, nil)
	var preview struct {
		Env     string `json:"env"`
		Preview struct {
			RowCount int `json:"row_count"`
		} `json:"preview"`
	}
	as(auth.Viewer, http.MethodGet, "/api/v1/products/clv__clv/preview?partition=2024-01-02&env=dev", nil, http.StatusOK, &preview)
	if preview.Env != "dev" || preview.Preview.RowCount == 0 {
		t.Fatalf("dev preview: %+v", preview)
	}
	var diff struct {
		Partitions int `json:"partitions"`
		Pipelines  []struct {
			Pipeline string `json:"pipeline"`
			Products []struct {
				Product string `json:"product"`
				New     int    `json:"new"`
			} `json:"products"`
		} `json:"pipelines"`
	}
	as(auth.Viewer, http.MethodGet, "/api/v1/envs/dev/diff", nil, http.StatusOK, &diff)
	if len(diff.Pipelines) != 1 || diff.Pipelines[0].Pipeline != "clv" || diff.Partitions != env.Partitions {
		t.Fatalf("diff: %+v", diff)
	}
	as(auth.Viewer, http.MethodGet, "/api/v1/envs/dev/diff/rows?product=clv&partition=2024-01-02", nil, http.StatusOK, nil)

	// An editor's cell reads its upstreams in dev: prod has no
	// daily_customer_metrics for 2024-01-02, dev has.
	src, err := os.ReadFile(filepath.Join(e.dir, "blocks", "clv", "clv.go"))
	if err != nil {
		t.Fatal(err)
	}
	ws := e.connect()
	ws.hello("env-session")
	exec := func(env string) Message {
		id := ws.nextID()
		ws.send(ClientMessage{Type: MsgExecute, ID: id, Pipeline: "clv", Block: "clv", Source: string(src), Partition: "2024-01-02", Env: env})
		m, _ := ws.await("result of "+id, time.Minute, func(m Message) bool { return m.ID == id && (m.Type == MsgResult || m.Type == MsgError) })
		return m
	}
	if m := exec(""); m.Type != MsgError || !strings.Contains(m.Error.Message, "no data") {
		t.Fatalf("a prod cell over a partition only dev has: %+v", m.Error)
	}
	if m := exec("dev"); m.Type != MsgResult {
		t.Fatalf("a cell in dev: %+v", m)
	}
	if m := exec("nope"); m.Type != MsgError || m.Error.Code != WSInvalid {
		t.Fatalf("a cell in an unknown environment: %+v", m)
	}
	// What a cell reads beside its upstreams is dev's too: a ctx.Product
	// window (Go) and a product named in SQL, of a partition only dev has.
	execSrc := func(block, source string) Message {
		id := ws.nextID()
		ws.send(ClientMessage{Type: MsgExecute, ID: id, Pipeline: "clv", Block: block, Source: source, Partition: "2024-01-02", Env: "dev"})
		m, _ := ws.await("result of "+id, time.Minute, func(m Message) bool { return m.ID == id && (m.Type == MsgResult || m.Type == MsgError) })
		return m
	}
	window := `package clv

import "github.com/stratahq/strata/blocks/sdk"

func Transform(ctx *sdk.Context, metrics *sdk.Table) (*sdk.Table, error) {
	return ctx.Product("daily_customer_metrics", sdk.Window{Partition: "2024-01-02"})
}
`
	if m := execSrc("clv", window); m.Type != MsgResult || m.Preview.RowCount == 0 {
		t.Fatalf("a dev cell's ctx.Product window of a partition only dev has: %+v %+v", m.Preview, m.Error)
	}
	named := `SELECT * FROM clv__clv WHERE _partition = '2024-01-02'`
	if m := execSrc("daily_customer_metrics", named); m.Type != MsgResult || m.Preview.RowCount == 0 {
		t.Fatalf("a dev SQL cell naming a product only dev has: %+v %+v", m.Preview, m.Error)
	}

	as(auth.Editor, http.MethodPost, "/api/v1/envs/dev/promote", map[string]any{}, http.StatusForbidden, nil)
	as(auth.Editor, http.MethodDelete, "/api/v1/envs/dev", nil, http.StatusForbidden, nil)
	var promoted struct {
		Partitions map[string]int `json:"partitions"`
	}
	// The review checks apply: revenue_total compares with prod's total,
	// which is nothing in a partition prod never had.
	refused := as(auth.Operator, http.MethodPost, "/api/v1/envs/dev/promote", map[string]any{}, http.StatusConflict, nil)
	if ae := apiError(t, refused); ae.Details == nil {
		t.Fatalf("a promote refused by checks should name them: %s", refused)
	}
	as(auth.Operator, http.MethodPost, "/api/v1/envs/dev/promote", map[string]any{"override": true}, http.StatusOK, &promoted)
	if promoted.Partitions["clv__clv"] != 1 {
		t.Fatalf("promote: %+v", promoted)
	}
	as(auth.Viewer, http.MethodGet, "/api/v1/products/clv__clv/preview?partition=2024-01-02", nil, http.StatusOK, nil)
	// Undone as a whole: prod has no such partition again.
	as(auth.Editor, http.MethodPost, "/api/v1/envs/dev/rollback", map[string]any{}, http.StatusForbidden, nil)
	var back struct {
		RolledBack int `json:"rolled_back"`
	}
	as(auth.Operator, http.MethodPost, "/api/v1/envs/dev/rollback", map[string]any{}, http.StatusOK, &back)
	if back.RolledBack == 0 {
		t.Fatalf("rollback: %+v", back)
	}
	as(auth.Viewer, http.MethodGet, "/api/v1/products/clv__clv/preview?partition=2024-01-02", nil, http.StatusNotFound, nil)
	as(auth.Operator, http.MethodPost, "/api/v1/envs/dev/rollback", map[string]any{}, http.StatusConflict, nil)
	as(auth.Operator, http.MethodDelete, "/api/v1/envs/dev", nil, http.StatusOK, nil)
	var list []envJSON
	as(auth.Viewer, http.MethodGet, "/api/v1/envs", nil, http.StatusOK, &list)
	if len(list) != 0 {
		t.Fatalf("envs after discard: %+v", list)
	}
}
