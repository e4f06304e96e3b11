package server

import (
	"net/http"
	"testing"
)

// Two tabs edit one block: the second save, made against the version both
// opened, is refused with 412 and the text now on disk; the same holds for
// the pipeline file. Without If-Match a save still writes.
func TestSaveWithStaleETagRefused(t *testing.T) {
	e := newEnv(t)
	var b blockDetail
	e.call("GET", "/api/v1/pipelines/clv/blocks/daily_customer_metrics", nil, http.StatusOK, &b)
	if b.ETag == "" {
		t.Fatal("GET block has no etag")
	}
	resp, _ := e.request("PUT", "/api/v1/pipelines/clv/blocks/daily_customer_metrics", map[string]string{"source": "SELECT 1 AS tab_a"}, "If-Match", b.ETag)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") == b.ETag {
		t.Fatalf("first save: %d, etag %q", resp.StatusCode, resp.Header.Get("ETag"))
	}
	resp, data := e.request("PUT", "/api/v1/pipelines/clv/blocks/daily_customer_metrics", map[string]string{"source": "SELECT 2 AS tab_b"}, "If-Match", b.ETag)
	if resp.StatusCode != http.StatusPreconditionFailed {
		t.Fatalf("stale save: %d %s, want 412", resp.StatusCode, data)
	}
	ae := apiError(t, data)
	d, _ := ae.Details.(map[string]any)
	if ae.Code != CodeChangedElsewhere || d["current"] != "SELECT 1 AS tab_a" || d["etag"] == "" {
		t.Fatalf("412 body %+v", ae)
	}
	if src, _ := e.srv.readFile("blocks/daily_customer_metrics.sql"); string(src) != "SELECT 1 AS tab_a" {
		t.Fatalf("the refused save wrote: %q", src)
	}
	// Overwrite: the etag the 412 named.
	e.request("PUT", "/api/v1/pipelines/clv/blocks/daily_customer_metrics", map[string]string{"source": "SELECT 2 AS tab_b"}, "If-Match", d["etag"].(string))
	if src, _ := e.srv.readFile("blocks/daily_customer_metrics.sql"); string(src) != "SELECT 2 AS tab_b" {
		t.Fatalf("overwrite did not write: %q", src)
	}

	var pl pipelineView
	e.call("GET", "/api/v1/pipelines/clv", nil, http.StatusOK, &pl)
	e.call("PUT", "/api/v1/pipelines/clv", map[string]string{"yaml": pl.YAML + "\n# edited in tab a\n"}, http.StatusOK, nil)
	resp, data = e.request("PUT", "/api/v1/pipelines/clv", map[string]string{"yaml": pl.YAML}, "If-Match", pl.ETag)
	if resp.StatusCode != http.StatusPreconditionFailed || apiError(t, data).Code != CodeChangedElsewhere {
		t.Fatalf("stale pipeline save: %d %s", resp.StatusCode, data)
	}
}

// A pipeline file broken on disk (a YAML syntax error) lists no blocks; a
// block's save still writes its file and answers 200 with the pipeline's
// problems, not an error.
func TestSaveBlockOfBrokenPipeline(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.NoWatch = true })
	if err := e.srv.writeFile("pipelines/clv.yaml", []byte("blocks:\n  - id: raw_orders\n   bad: [\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.reload(); err != nil {
		t.Fatal(err)
	}
	var d blockDetail
	e.call("PUT", "/api/v1/pipelines/clv/blocks/daily_customer_metrics", map[string]string{"source": "SELECT 7 AS kept"}, http.StatusOK, &d)
	if len(d.Problems) == 0 || d.Problems[0].File != "pipelines/clv.yaml" || d.Problems[0].Line == 0 {
		t.Fatalf("problems %+v: want the pipeline file's, with a line", d.Problems)
	}
	if src, _ := e.srv.readFile("blocks/daily_customer_metrics.sql"); string(src) != "SELECT 7 AS kept" {
		t.Fatalf("not written: %q", src)
	}
}
