package server

import (
	"net/http"
	"strings"
	"testing"
)

// strata.yaml is edited like a pipeline file: its version travels as an
// ETag and a stale save is refused; a save with problems is written and
// reports them with line and field; text that is not YAML is refused and
// nothing is written. The check route says the same of unsaved text.
func TestSettingsEditorSaveAndCheck(t *testing.T) {
	e := newEnv(t)
	var st settingsView
	e.call("GET", "/api/v1/project/settings", nil, http.StatusOK, &st)
	if st.File != "strata.yaml" || st.ETag == "" || !strings.Contains(st.YAML, "retention:") || len(st.Problems) != 0 {
		t.Fatalf("GET settings: %+v", st)
	}
	bad := strings.Replace(st.YAML, "retention: 3", "retention: 0", 1)
	if bad == st.YAML {
		t.Fatal("the demo strata.yaml changed: cannot place the edit")
	}
	var saved settingsView
	resp, data := e.request("PUT", "/api/v1/project/settings", map[string]string{"yaml": bad}, "If-Match", st.ETag)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("save with a problem: %d %s", resp.StatusCode, data)
	}
	e.call("GET", "/api/v1/project/settings", nil, http.StatusOK, &saved)
	if saved.YAML != bad || len(saved.Problems) != 1 || saved.Problems[0].Field != "retention" || saved.Problems[0].Line == 0 {
		t.Fatalf("after the save: %+v", saved.Problems)
	}
	// The old version is stale now.
	resp, data = e.request("PUT", "/api/v1/project/settings", map[string]string{"yaml": st.YAML}, "If-Match", st.ETag)
	if resp.StatusCode != http.StatusPreconditionFailed || apiError(t, data).Code != CodeChangedElsewhere {
		t.Fatalf("stale save: %d %s", resp.StatusCode, data)
	}
	resp, data = e.request("PUT", "/api/v1/project/settings", map[string]string{"yaml": "name: [demo\n"}, "If-Match", saved.ETag)
	if resp.StatusCode != http.StatusUnprocessableEntity || apiError(t, data).Code != CodeInvalidYAML {
		t.Fatalf("not YAML: %d %s", resp.StatusCode, data)
	}
	if cur, _ := e.srv.readFile("strata.yaml"); string(cur) != bad {
		t.Fatalf("a refused save wrote: %q", cur)
	}
	var chk struct {
		Problems []struct {
			File, Field, Message string
			Line                 int
		}
	}
	e.call("POST", "/api/v1/project/check", map[string]string{"file": "pipelines/clv.yaml", "yaml": "partitions: {interval: fortnight}\nblocks: []\n"}, http.StatusOK, &chk)
	if len(chk.Problems) == 0 || chk.Problems[0].File != "pipelines/clv.yaml" || chk.Problems[0].Field != "partitions.interval" || chk.Problems[0].Line != 1 {
		t.Fatalf("check: %+v", chk.Problems)
	}
	e.call("POST", "/api/v1/project/check", map[string]string{"file": "../x.yaml", "yaml": ""}, http.StatusBadRequest, nil)
}

// A block saved with ?format=gofmt is written as gofmt prints it; without
// it, as sent; a SQL block is never touched.
func TestSaveBlockFormatsGo(t *testing.T) {
	e := newEnv(t)
	var b blockDetail
	e.call("GET", "/api/v1/pipelines/clv/blocks/raw_orders", nil, http.StatusOK, &b)
	messy := strings.Replace(b.Source, "func Load(", "func   Load(", 1)
	if messy == b.Source {
		t.Fatal("the demo raw_orders changed: cannot place the edit")
	}
	var saved blockDetail
	e.call("PUT", "/api/v1/pipelines/clv/blocks/raw_orders?format=gofmt", map[string]string{"source": messy}, http.StatusOK, &saved)
	if saved.Source != b.Source {
		t.Fatalf("formatted save wrote:\n%s", saved.Source)
	}
	e.call("PUT", "/api/v1/pipelines/clv/blocks/raw_orders", map[string]string{"source": messy}, http.StatusOK, &saved)
	if saved.Source != messy {
		t.Fatal("a save without format=gofmt was formatted")
	}
	e.call("PUT", "/api/v1/pipelines/clv/blocks/daily_customer_metrics?format=gofmt", map[string]string{"source": "SELECT   1 AS x"}, http.StatusOK, &saved)
	if saved.Source != "SELECT   1 AS x" {
		t.Fatalf("a SQL block was changed: %q", saved.Source)
	}
}
