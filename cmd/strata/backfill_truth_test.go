package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// truthProject is a new project with one daily pipeline "p" whose Go block
// is src (blocks/b/b.go).
func truthProject(t *testing.T, bin, src string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "proj")
	if out, code := strataproc.Run(t, bin, "init", dir); code != 0 {
		t.Fatalf("init: %s", out)
	}
	files := map[string]string{
		"pipelines/p.yaml": "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nconcurrency: 1\nblocks:\n  - id: b\n",
		"blocks/b/b.go":    src,
	}
	for p, c := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A type error on line 6, column 9 (the undefined name).
const brokenBlock = `package b

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	return notDefined(ctx), nil
}
`

// TestBackfillOfCodeThatDoesNotCompileIsRefused: a backfill over a Go block
// that does not compile is refused before anything is recorded, with the
// type checker's message at the block's file:line:col, from the CLI and the
// API; the dry run says so too. Before, it launched and every partition
// failed with the reason only inside each one.
func TestBackfillOfCodeThatDoesNotCompileIsRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := truthProject(t, bin, brokenBlock)
	const at = "blocks/b/b.go:6:9: undefined: notDefined"

	out, code := strataproc.Run(t, bin, "backfill", dir, "p", "--from", "2024-01-01", "--to", "2024-01-03", "--dry-run")
	if code != 0 || !strings.Contains(out, "CANNOT LAUNCH") || !strings.Contains(out, at) {
		t.Fatalf("dry run (exit %d) does not say the launch would be refused at %s:\n%s", code, at, out)
	}
	out, code = strataproc.Run(t, bin, "backfill", dir, "p", "--from", "2024-01-01", "--to", "2024-01-03")
	if code == 0 || !strings.Contains(out, "does not compile") || !strings.Contains(out, at) {
		t.Fatalf("launch (exit %d) was not refused with %s:\n%s", code, at, out)
	}
	if out, _ := strataproc.Run(t, bin, "backfill", "list", dir, "--format", "json"); strings.Contains(out, "bf_") {
		t.Fatalf("a refused launch recorded a backfill:\n%s", out)
	}

	srv := strataproc.Start(t, bin, dir, "truth-token-0123456789")
	body := `{"pipeline": "p", "from": "2024-01-01", "to": "2024-01-03"}`
	var plan struct {
		CompileErrors []string `json:"compile_errors"`
	}
	srv.Call(t, http.MethodPost, "/backfills/plan", body, &plan)
	if len(plan.CompileErrors) != 1 || !strings.HasPrefix(plan.CompileErrors[0], at) {
		t.Fatalf("API dry run: compile_errors %q, want %s", plan.CompileErrors, at)
	}
	status, data, err := srv.Request(http.MethodPost, "/backfills", body)
	if err != nil {
		t.Fatal(err)
	}
	var apiErr struct {
		Error struct {
			Message string `json:"message"`
			Details struct {
				Problems []string `json:"problems"`
			} `json:"details"`
		} `json:"error"`
	}
	_ = json.Unmarshal(data, &apiErr)
	if status != http.StatusUnprocessableEntity || len(apiErr.Error.Details.Problems) != 1 || !strings.HasPrefix(apiErr.Error.Details.Problems[0], at) {
		t.Fatalf("API launch: %d %s, want 422 naming %s", status, data, at)
	}
	var list struct {
		Backfills []json.RawMessage `json:"backfills"`
	}
	srv.Call(t, http.MethodGet, "/backfills", "", &list)
	if len(list.Backfills) != 0 {
		t.Fatalf("a refused launch recorded %d backfill(s)", len(list.Backfills))
	}
}

// A block that panics, and the same block fixed.
const (
	panickingBlock = `package b

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	panic("boom " + ctx.Partition.Key)
}
`
	fixedBlock = `package b

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	out := sdk.NewTable(sdk.String("day"))
	out.Append(ctx.Partition.Key)
	return out, nil
}
`
)

var backfillIDPattern = regexp.MustCompile(`backfill (bf_[0-9A-Za-z_]+)`)

// TestRetryAfterAFixNamesUseCurrentCode: a backfill failed on a panic, the
// user fixed the block and ran the suggested retry. The retry reruns the
// launch version (as designed), so it says so before it runs and names
// --use-current-code, and when it fails the same way the hint names it too
// (before, it suggested the same plain retry again: a loop).
func TestRetryAfterAFixNamesUseCurrentCode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := truthProject(t, bin, panickingBlock)
	out, code := strataproc.Run(t, bin, "backfill", dir, "p", "--from", "2024-01-01", "--to", "2024-01-02")
	m := backfillIDPattern.FindStringSubmatch(out)
	if code == 0 || m == nil || !strings.Contains(out, "strata backfill retry "+dir+" "+m[1]+"\n") || strings.Contains(out, "--use-current-code") {
		t.Fatalf("first failure (exit %d): want the plain retry hint (the files did not change):\n%s", code, out)
	}
	id := m[1]
	// A fix that does not compile is refused by a retry with the current
	// code as by a launch, at its line, and the backfill keeps its version.
	if err := os.WriteFile(filepath.Join(dir, "blocks/b/b.go"), []byte(brokenBlock), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = strataproc.Run(t, bin, "backfill", "retry", dir, id, "--use-current-code")
	if code == 0 || !strings.Contains(out, "blocks/b/b.go:6:9: undefined: notDefined") {
		t.Fatalf("retry --use-current-code over code that does not compile (exit %d):\n%s", code, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "blocks/b/b.go"), []byte(fixedBlock), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ = strataproc.Run(t, bin, "backfill", "retry", dir, id, "--dry-run")
	if !strings.Contains(out, "files have changed") || !strings.Contains(out, "--use-current-code") {
		t.Fatalf("retry dry run after a fix does not say a retry reruns the old code:\n%s", out)
	}
	out, code = strataproc.Run(t, bin, "backfill", "retry", dir, id)
	note := strings.Index(out, "NOTE: the files have changed")
	started := strings.Index(out, "retrying with pipeline version")
	if code == 0 || note < 0 || started < 0 || note > started {
		t.Fatalf("plain retry after a fix (exit %d): want a NOTE naming --use-current-code before it runs:\n%s", code, out)
	}
	hint := out[strings.LastIndex(out, "re-run what did not succeed"):]
	if !strings.Contains(hint, "strata backfill retry "+dir+" "+id+" --use-current-code") {
		t.Fatalf("the failure hint after the files changed does not name --use-current-code:\n%s", out)
	}
	out, code = strataproc.Run(t, bin, "backfill", "retry", dir, id, "--use-current-code")
	if code != 0 || !strings.Contains(out, "succeeded") {
		t.Fatalf("retry with the current code (exit %d):\n%s", code, out)
	}
}
