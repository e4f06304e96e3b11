package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// bigOutputBlock prints 2,000,008 bytes.
const bigOutputBlock = `package big

import (
	"fmt"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	line := strings.Repeat("x", 99)
	for i := 0; i < 20000; i++ {
		fmt.Println(line)
	}
	fmt.Println("THE END")
	return sdk.NewTable(sdk.Int64("n")), nil
}
`

// TestOutputCutIsSaid: a block's stdout kept in a result (1 MiB) and in a
// run's log (64 KiB) was cut with no word of it, and the log's cut fell at
// a different length per engine. Through the real binary, in both engines,
// each ends at exactly its limit with "output truncated at …: N bytes more".
func TestOutputCutIsSaid(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no Go toolchain")
	}
	bin := strataproc.Binary(t)
	proj := filepath.Join(t.TempDir(), "proj")
	if out, err := exec.Command(bin, "init", proj).CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	file := filepath.Join(proj, "blocks", "big", "big.go")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(bigOutputBlock), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "pipelines", "b.yaml"), []byte("partitions: {interval: day, start: 2024-01-01}\nblocks:\n  - id: big\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const total = 20000*100 + len("THE END\n")
	for _, eng := range []string{"interp", "compiled"} {
		out, err := exec.Command(bin, "exec", file, "--engine", eng, "--format", "json").Output()
		if err != nil {
			t.Fatalf("exec --engine %s: %v", eng, err)
		}
		var doc struct{ Stdout string }
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatal(err)
		}
		want := "\n… output truncated at 1 MiB: 951432 bytes more\n"
		if !strings.HasSuffix(doc.Stdout, want) || len(doc.Stdout) != 1<<20+len(want) {
			t.Errorf("exec --engine %s: stdout of %d bytes ends %q, want %d kept and %q", eng, len(doc.Stdout), tail(doc.Stdout), 1<<20, want)
		}

		out, err = exec.Command(bin, "run", proj, "b", "--partition", "2024-01-03", "--engine", eng, "--format", "json").Output()
		if err != nil {
			t.Fatalf("run --engine %s: %v", eng, err)
		}
		var run struct {
			Blocks []struct{ Log string }
		}
		if err := json.Unmarshal(out, &run); err != nil || len(run.Blocks) != 1 {
			t.Fatalf("run json: %v\n%.300s", err, out)
		}
		log := run.Blocks[0].Log
		want = "\n… output truncated at 64 KiB: " + itoa(total-64<<10) + " bytes more\n"
		if !strings.HasSuffix(log, want) || len(log) != 64<<10+len(want) {
			t.Errorf("run --engine %s: log of %d bytes ends %q, want %d kept and %q", eng, len(log), tail(log), 64<<10, want)
		}
	}
}

func tail(s string) string { return s[max(0, len(s)-80):] }

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
