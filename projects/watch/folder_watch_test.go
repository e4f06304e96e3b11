package watch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// Writes in the project (also in a folder created after the start) are
// reported once per burst; .strata and hidden temporaries are not.
func TestWatcherReportsProjectChanges(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"pipelines", "blocks", ".strata"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got := make(chan []string, 10)
	w, err := Start(root, 50*time.Millisecond, func(p []string) { got <- p })
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	write := func(rel, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".strata/warehouse.duckdb", "x")
	write("pipelines/.clv.yaml.123.tmp", "x")
	write("pipelines/clv.yaml", "a")
	write("pipelines/clv.yaml", "ab")
	paths := wait(t, got)
	if !slices.Equal(paths, []string{"pipelines/clv.yaml"}) {
		t.Fatalf("burst reported %v, want only pipelines/clv.yaml", paths)
	}
	if err := os.MkdirAll(filepath.Join(root, "blocks/new_block"), 0o755); err != nil {
		t.Fatal(err)
	}
	wait(t, got) // the folder itself
	time.Sleep(20 * time.Millisecond)
	write("blocks/new_block/new_block.go", "package new_block")
	for {
		paths = wait(t, got)
		if slices.Contains(paths, "blocks/new_block/new_block.go") {
			break
		}
	}
}

func wait(t *testing.T, ch <-chan []string) []string {
	t.Helper()
	select {
	case p := <-ch:
		return p
	case <-time.After(5 * time.Second):
		t.Fatal("no change reported")
		return nil
	}
}
