package server

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// With .strata/ removed, or the warehouse file replaced, under a running
// server, nothing is answered succeeded any more: writes are refused with an
// error that says what happened, and /healthz reports unhealthy.
func TestRemovedWarehouseFailsLoud(t *testing.T) {
	for _, tc := range []struct {
		name    string
		breakIt func(t *testing.T, dir string)
	}{
		{"removed", func(t *testing.T, dir string) {
			if err := os.RemoveAll(filepath.Join(dir, ".strata")); err != nil {
				t.Fatal(err)
			}
		}},
		{"replaced", func(t *testing.T, dir string) {
			path := filepath.Join(dir, ".strata", "warehouse.duckdb")
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path+".new", raw, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(path+".new", path); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.call(http.MethodPost, "/api/v1/pipelines/clv/runs?wait=true", map[string]string{"partition": "2024-03-09"}, http.StatusOK, nil)
			tc.breakIt(t, e.dir)

			resp, data := e.request(http.MethodGet, "/healthz", nil, "Authorization", "")
			if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(data), "warehouse") {
				t.Fatalf("healthz with the warehouse %s: %d %s", tc.name, resp.StatusCode, data)
			}
			resp, data = e.request(http.MethodPost, "/api/v1/pipelines/clv/runs?wait=true", map[string]string{"partition": "2024-03-10"})
			if resp.StatusCode < 500 || !strings.Contains(string(data), "no longer") {
				t.Fatalf("run with the warehouse %s: %d %s", tc.name, resp.StatusCode, data)
			}
			resp, data = e.request(http.MethodPost, "/api/v1/backfills", map[string]any{"pipeline": "clv", "from": "2024-03-04", "to": "2024-03-06"})
			if resp.StatusCode < 500 || !strings.Contains(string(data), "no longer") {
				t.Fatalf("backfill with the warehouse %s: %d %s", tc.name, resp.StatusCode, data)
			}
		})
	}
}
