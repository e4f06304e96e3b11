package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// A block's relative paths resolve in the project folder, in both engines
// and in SQL, whichever folder strata is started from: kernels (and
// DuckDB) looked in the folder of the shell that started strata, so
// `strata run DIR` found data/seed.csv from DIR and failed "no such file or
// directory" ("No files found" in SQL) from anywhere else.
func TestBlocksRunInTheProjectFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	proj := filepath.Join(t.TempDir(), "proj")
	write := func(rel, text string) {
		t.Helper()
		path := filepath.Join(proj, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command(bin, "init", proj).CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	write("data/seed.csv", "a\nb\nc\n")
	write("pipelines/seeds.yaml", "partitions:\n  interval: day\n  start: \"2024-01-01\"\nblocks:\n  - id: seed\n  - id: seed_sql\n")
	write("blocks/seed_sql.sql", "SELECT * FROM read_csv('data/seed.csv', header = false)\n")
	write("blocks/seed/seed.go", `package seed

import (
	"os"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	b, err := os.ReadFile("data/seed.csv")
	if err != nil {
		return nil, err
	}
	t := sdk.NewTable(sdk.String("v"))
	for _, v := range strings.Fields(string(b)) {
		t.Append(v)
	}
	return t, nil
}
`)
	elsewhere := t.TempDir()
	engines := []string{"interp"}
	if _, err := exec.LookPath("go"); err == nil {
		engines = append(engines, "compiled")
	}
	for _, engine := range engines {
		cmd := exec.Command(bin, "run", proj, "seeds", "--partition", "2024-03-10", "--engine", engine)
		cmd.Dir = elsewhere
		out, err := cmd.CombinedOutput()
		if err != nil || strings.Count(string(out), " 3 rows") != 2 {
			t.Errorf("%s, started from another folder: %v\n%s", engine, err, out)
		}
	}
}
