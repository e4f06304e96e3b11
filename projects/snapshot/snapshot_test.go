package snapshot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/projects/scaffold"
)

func demo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "proj")
	if err := scaffold.Init(dir, true); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A snapshot covers the pipeline file, strata.yaml and every block file;
// it is kept whole, loads as the pipeline it pinned, and refuses files
// edited in place.
func TestTakeSaveOpen(t *testing.T) {
	t.Parallel()
	dir := demo(t)
	s, err := Take(dir, "clv")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range s.Files {
		names = append(names, f.Path)
	}
	joined := strings.Join(names, " ")
	for _, want := range []string{"strata.yaml", "pipelines/clv.yaml", "blocks/clv/clv.go", "blocks/daily_customer_metrics.sql"} {
		if !strings.Contains(joined, want) {
			t.Errorf("snapshot lacks %s: %s", want, joined)
		}
	}
	again, _ := Take(dir, "clv")
	if again.Hash != s.Hash || len(s.Hash) != 16 {
		t.Fatalf("hash %q then %q", s.Hash, again.Hash)
	}
	if err := s.Save(dir); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(dir); err != nil {
		t.Fatalf("saving twice: %v", err)
	}
	// Editing the project changes its version, not the kept snapshot.
	clv := filepath.Join(dir, "blocks/clv/clv.go")
	src, _ := os.ReadFile(clv)
	if err := os.WriteFile(clv, []byte(strings.Replace(string(src), "lifetime := 2.0", "lifetime := 3.0", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if edited, _ := Take(dir, "clv"); edited.Hash == s.Hash {
		t.Fatal("an edited block kept the pipeline version")
	}
	_, pl, err := Open(dir, s.Hash, "clv")
	if err != nil {
		t.Fatal(err)
	}
	b := pl.Block("clv")
	pinned, _ := os.ReadFile(b.Path)
	if !strings.Contains(string(pinned), "lifetime := 2.0") || !strings.HasPrefix(b.Path, Path(dir, s.Hash)) {
		t.Fatalf("the pinned block is %s", b.Path)
	}
	// A snapshot changed in place is refused.
	p := filepath.Join(Path(dir, s.Hash), "blocks/clv/clv.go")
	_ = os.Chmod(p, 0o644)
	if err := os.WriteFile(p, []byte(strings.Replace(string(pinned), "2.0", "9.0", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Open(dir, s.Hash, "clv"); err == nil || !strings.Contains(err.Error(), "were changed") {
		t.Fatalf("a tampered snapshot: %v", err)
	}
	if _, _, err := Open(dir, "0000000000000000", "clv"); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("a missing snapshot: %v", err)
	}
}

func TestTakeRefusesBrokenPipelines(t *testing.T) {
	t.Parallel()
	dir := demo(t)
	if _, err := Take(dir, "nope"); err == nil || !strings.Contains(err.Error(), "clv") {
		t.Fatalf("unknown pipeline: %v", err)
	}
	if err := os.Remove(filepath.Join(dir, "blocks/clv/clv.go")); err != nil {
		t.Fatal(err)
	}
	if _, err := Take(dir, "clv"); err == nil {
		t.Fatal("a pipeline with a missing block file was snapshotted")
	}
}
