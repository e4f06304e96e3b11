package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/strataproc"
)

// ownerProject writes a project whose pipeline main publishes the global
// product sales (amount 1 a day), with retention 2.
func ownerProject(t *testing.T, extra map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "proj")
	files := map[string]string{
		"strata.yaml": "name: owners\ntimezone: UTC\nretention: 2\n",
		"pipelines/main.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: sales
    product: sales
`,
		"blocks/sales.sql": "SELECT $partition_key AS day, 1 AS amount\n",
	}
	for p, c := range extra {
		files[p] = c
	}
	writeProject(t, dir, files)
	return dir
}

func writeProject(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// copyClaim is a second pipeline declaring the product sales, whose file
// name sorts before main.yaml, with other data and a wider schema.
var copyClaim = map[string]string{
	"pipelines/copy.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: dup
    product: sales
`,
	"blocks/dup.sql": "SELECT $partition_key AS day, 99 AS amount, 'copy' AS extra\n",
}

// TestANewPipelineCannotTakeOverAProduct: adding pipelines/copy.yaml with
// `product: sales` blocked the established main.yaml (file order decided),
// copy's runs replaced sales, retention dropped main's last version and
// the rollback that would have saved it was refused. The product belongs
// to main, which first published it: copy is the broken one, main runs,
// its data and its rollback are untouched; ownership moves only by
// `strata products transfer`.
func TestANewPipelineCannotTakeOverAProduct(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := ownerProject(t, nil)
	run := func(want int, args ...string) string {
		t.Helper()
		return runWant(t, bin, want, args...)
	}
	run(0, "run", dir, "main", "--partition", "2024-01-01")
	run(0, "run", dir, "main", "--partition", "2024-01-01")
	writeProject(t, dir, copyClaim)

	out := run(0, "run", dir, "main", "--partition", "2024-01-01") // version 3, still main's
	if !strings.Contains(out, "succeeded") || strings.Contains(out, "\npipelines/main.yaml:") {
		t.Fatalf("main after copy.yaml appeared (runs, and no problem is printed against it):\n%s", out)
	}
	for i := 0; i < 3; i++ {
		out = run(1, "run", dir, "copy", "--partition", "2024-01-01")
	}
	for _, want := range []string{"pipelines/copy.yaml", "pipelines/main.yaml", `duplicate product "sales"`, "first published it", "strata products transfer " + dir + " sales --to copy"} {
		if !strings.Contains(out, want) {
			t.Fatalf("copy's refusal lacks %q:\n%s", want, out)
		}
	}
	preview := run(0, "preview", dir, "main", "sales", "--partition", "2024-01-01", "--format", "json")
	// (Compared without spaces, past the warning that names the temp folder.)
	rows := strings.Join(strings.Fields(preview[strings.Index(preview, "{"):]), "")
	if !strings.Contains(rows, `"rows":[["2024-01-01","2024-01-01",1]]`) || strings.Contains(rows, "extra") {
		t.Fatalf("sales is not main's data any more:\n%s", preview)
	}
	var owners []struct{ Product, Pipeline, How string }
	list := run(0, "products", "owners", dir, "--format", "json")
	list = list[strings.Index(list, "\n[")+1:] // after the warning about copy.yaml
	if err := json.Unmarshal([]byte(list), &owners); err != nil || len(owners) != 1 || owners[0].Pipeline != "main" {
		t.Fatalf("owners: %+v %v", owners, err)
	}
	// main's rollback works, by product name and by its block.
	run(0, "rollback", dir, "sales", "--partition", "2024-01-01", "--to-version", "2")
	run(0, "rollback", dir, "main", "sales", "--partition", "2024-01-01", "--to-version", "3")

	// Moving it is an explicit act; then main is the one that may not.
	out = run(0, "products", "transfer", dir, "sales", "--to", "copy")
	if !strings.Contains(out, "sales now belongs to pipeline copy (was: main)") {
		t.Fatalf("transfer: %s", out)
	}
	run(0, "run", dir, "copy", "--partition", "2024-01-02")
	out = run(1, "run", dir, "main", "--partition", "2024-01-02")
	if !strings.Contains(out, `it belongs to pipeline "copy"`) {
		t.Fatalf("main after the transfer:\n%s", out)
	}
}

// TestAClaimantCannotFeedAnEventTriggeredDownstream: through the API, a
// product with an event-triggered downstream was taken over by a new
// pipeline, and the downstream recomputed from the claimant's data. The
// claimant is refused (422), the owner runs, and the downstream reads the
// owner's data only.
func TestAClaimantCannotFeedAnEventTriggeredDownstream(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := ownerProject(t, map[string]string{
		"pipelines/report.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: report
    product: sales_report
triggers:
  - id: on-sales
    when: {product: sales, changes: new-version}
`,
		"blocks/report.sql": "SELECT $partition_key AS day, sum(amount) AS total FROM sales\n",
	})
	if out, code := strataproc.Run(t, bin, "run", dir, "main", "--partition", "2024-01-01"); code != 0 {
		t.Fatalf("strata run: %d\n%s", code, out)
	}
	srv := strataproc.Start(t, bin, dir, "0123456789abcdef-test")
	report := func() (int, string) {
		code, body, err := srv.Request(http.MethodGet, "/products/sales_report/preview?partition=2024-01-01", "")
		if err != nil {
			t.Fatal(err)
		}
		return code, string(body)
	}
	waitReport := func(want string) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			code, body := report()
			if code == http.StatusOK && strings.Contains(body, want) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("report: %d %s, want %s\n%s", code, body, want, srv.Stderr)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	waitReport(`"2024-01-01",1]`)

	// copy.yaml appears while the server runs: the watcher reloads.
	writeProject(t, dir, copyClaim)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var pl struct {
			Runnable bool `json:"runnable"`
			Problems []struct{ Message string }
		}
		srv.Call(t, http.MethodGet, "/pipelines/copy", "", &pl)
		if !pl.Runnable && len(pl.Problems) == 1 && strings.Contains(pl.Problems[0].Message, "pipelines/main.yaml") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pipeline copy after it appeared: %+v", pl)
		}
		time.Sleep(100 * time.Millisecond)
	}
	code, body, err := srv.Request(http.MethodPost, "/pipelines/copy/runs?wait=true", `{"partition":"2024-01-01"}`)
	if err != nil || code != http.StatusUnprocessableEntity || !strings.Contains(string(body), "first published it") {
		t.Fatalf("run of the claimant: %d %s %v", code, body, err)
	}
	var run struct{ State string }
	srv.Call(t, http.MethodPost, "/pipelines/main/runs?wait=true", `{"partition":"2024-01-01"}`, &run)
	if run.State != "succeeded" {
		t.Fatalf("run of the owner: %+v", run)
	}
	var rb map[string]any
	srv.Call(t, http.MethodPost, "/products/sales/rollback", `{"partition":"2024-01-01","version":1}`, &rb)
	waitReport(`"2024-01-01",1]`)
	if _, body := report(); strings.Contains(body, ",99]") {
		t.Fatalf("the downstream read the claimant's data: %s", body)
	}
	srv.Stop(t)
}
