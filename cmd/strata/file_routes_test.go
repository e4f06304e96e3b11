package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestFileRoutesRefuseBodiesThatAreNotTheFile: PUT /project/settings with
// the JSON form {"yaml": "..."} but no JSON content type overwrote
// strata.yaml with that JSON text (YAML reads it as a mapping, so the save
// looked fine). Every route that replaces a project file (settings, a
// pipeline file, a block's source) refuses, with a 400 saying why, a body
// that is not the file it replaces, and leaves the file as it was; the
// file's own text still saves.
func TestFileRoutesRefuseBodiesThatAreNotTheFile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	files := map[string]string{
		"strata.yaml":          "name: files\ntimezone: UTC\n",
		"pipelines/daily.yaml": "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nblocks:\n  - id: d\n",
		"blocks/d.sql":         "SELECT $partition_key AS day\n",
	}
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := strataproc.Start(t, bin, dir, "0123456789abcdef-test")
	put := func(path, contentType, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPut, srv.Base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+srv.Token)
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	unchanged := func(file string) {
		t.Helper()
		got, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil || string(got) != files[file] {
			t.Fatalf("%s was written: %q %v", file, got, err)
		}
	}
	for _, c := range []struct{ path, ct, body, file, want string }{
		{"/project/settings", "", `{"yaml": "name: changed\n"}`, "strata.yaml", "not application/json"},
		{"/project/settings", "text/plain", `{"yaml": "name: changed\n"}`, "strata.yaml", "is text/plain, not application/json"},
		{"/project/settings", "application/yaml", "- name\n- files\n", "strata.yaml", "strata.yaml must be a mapping of settings"},
		{"/pipelines/daily", "", `{"yaml": "blocks: []\n"}`, "pipelines/daily.yaml", "not application/json"},
		{"/pipelines/daily", "application/yaml", "just words\n", "pipelines/daily.yaml", "must be a mapping of settings"},
		{"/pipelines/daily/blocks/d", "", `{"source": "SELECT 1 AS day\n"}`, "blocks/d.sql", "not application/json"},
	} {
		status, body := put(c.path, c.ct, c.body)
		if status != http.StatusBadRequest || !strings.Contains(body, c.want) {
			t.Fatalf("PUT %s (%s) %q: %d %s, want 400 saying %q", c.path, c.ct, c.body, status, body, c.want)
		}
		unchanged(c.file)
	}
	if status, body := put("/project/settings", "application/yaml", "name: renamed\ntimezone: UTC\n"); status != http.StatusOK {
		t.Fatalf("the file's own text: %d %s", status, body)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "strata.yaml")); string(got) != "name: renamed\ntimezone: UTC\n" {
		t.Fatalf("strata.yaml after a good save: %q", got)
	}
}
