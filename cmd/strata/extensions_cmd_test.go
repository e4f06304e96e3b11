package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
	"github.com/stratahq/strata/projects/extensions"
	"github.com/stratahq/strata/projects/extensions/exttest"
)

// writeExtProject writes a project's files under dir.
func writeExtProject(t *testing.T, dir string, files map[string]string) {
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

// A project that names an extension: a run before it is installed fails
// naming the command; `strata extensions install --from` the wheels
// installs it offline; the run then loads it.
func TestExtensionsInstallFromWheelsThenRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	wheels := exttest.Wheels(t)
	t.Setenv(extensions.DirEnv, t.TempDir())
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	writeExtProject(t, dir, map[string]string{
		"strata.yaml": "name: lake\nextensions: [ducklake]\n",
		"pipelines/lake.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: lake
`,
		"blocks/lake.sql": "SELECT $partition_key AS day, (SELECT loaded FROM duckdb_extensions() WHERE extension_name = 'ducklake') AS ducklake_loaded\n",
	})

	out, code := strataproc.Run(t, bin, "run", dir, "lake", "--partition", "2024-01-02")
	if code == 0 || !strings.Contains(out, "DuckDB extension ducklake is not installed") || !strings.Contains(out, "strata extensions install DIR") {
		t.Fatalf("run without the extension: exit %d\n%s", code, out)
	}
	out, code = strataproc.Run(t, bin, "extensions", "list", dir)
	if code != 0 || !strings.Contains(out, "ducklake   false") {
		t.Fatalf("extensions list: exit %d\n%s", code, out)
	}
	out, code = strataproc.Run(t, bin, "extensions", "install", dir, "--from", wheels)
	if code != 0 || !strings.Contains(out, "ducklake: installed ") {
		t.Fatalf("extensions install: exit %d\n%s", code, out)
	}
	out, code = strataproc.Run(t, bin, "extensions", "install", dir, "--from", wheels)
	if code != 0 || !strings.Contains(out, "ducklake: already installed") {
		t.Fatalf("second extensions install: exit %d\n%s", code, out)
	}
	out, code = strataproc.Run(t, bin, "run", dir, "lake", "--partition", "2024-01-02")
	if code != 0 || !strings.Contains(out, "succeeded") {
		t.Fatalf("run with the extension installed: exit %d\n%s", code, out)
	}
	out, code = strataproc.Run(t, bin, "preview", dir, "lake", "lake", "--partition", "2024-01-02", "--format", "json")
	if code != 0 || !strings.Contains(out, "true") {
		t.Fatalf("preview: exit %d\n%s", code, out)
	}
}

func TestExtensionsInstallBadSource(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Setenv(extensions.DirEnv, t.TempDir())
	bin := strataproc.Binary(t)
	empty := t.TempDir()
	out, code := strataproc.Run(t, bin, "extensions", "install", "--name", "postgres", "--from", empty)
	if code != 1 || !strings.Contains(out, "extension postgres for DuckDB v1.5.5 is not in "+empty) || !strings.Contains(out, "pip download duckdb-extension-postgres==1.5.5") {
		t.Fatalf("install from an empty folder: exit %d\n%s", code, out)
	}
	out, code = strataproc.Run(t, bin, "extensions", "remove")
	if code != 1 || !strings.Contains(out, "usage: strata extensions install") {
		t.Fatalf("unknown subcommand: exit %d\n%s", code, out)
	}
}
