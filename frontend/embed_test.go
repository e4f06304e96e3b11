package frontend

import (
	"io/fs"
	"regexp"
	"testing"
)

// The committed dist is embedded: a plain `go build ./cmd/strata` serves the
// UI, every asset index.html names is there (make check-dist verifies it is
// the current build of src).
func TestDistIsEmbedded(t *testing.T) {
	ui := FS()
	if ui == nil {
		t.Fatal("frontend/dist has no index.html: run npm run build and commit frontend/dist")
	}
	index, err := fs.ReadFile(ui, "index.html")
	if err != nil {
		t.Fatal(err)
	}
	refs := regexp.MustCompile(`(?:src|href)="/(assets/[^"]+)"`).FindAllStringSubmatch(string(index), -1)
	if len(refs) == 0 {
		t.Fatalf("index.html names no assets:\n%s", index)
	}
	for _, r := range refs {
		if _, err := fs.Stat(ui, r[1]); err != nil {
			t.Errorf("index.html names %s, missing from dist: %v", r[1], err)
		}
	}
}
