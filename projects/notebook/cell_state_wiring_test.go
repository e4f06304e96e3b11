package notebook

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
)

// wiredPipeline loads a pipeline of three SQL blocks a, c and b, where b
// reads the upstreams given.
func wiredPipeline(t *testing.T, upstream string) *project.Pipeline {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"strata.yaml":      "name: t\ntimezone: UTC\n",
		"blocks/a.sql":     "SELECT 1 AS n\n",
		"blocks/c.sql":     "SELECT 2 AS n\n",
		"blocks/b.sql":     "SELECT 3 AS n\n",
		"pipelines/p.yaml": "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nblocks:\n  - id: a\n  - id: c\n  - id: b\n    upstream: " + upstream + "\n",
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
	proj, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return proj.Pipelines["p"]
}

// TestDraftReadOtherUpstreamsIsStale: the code fingerprint leaves out a
// block's wiring, so a cell rewired to another upstream (or whose two
// upstreams swapped places, and with them the parameters of a Transform)
// kept a draft computed from the old inputs shown "current", and cells
// below it read it as fresh.
func TestDraftReadOtherUpstreamsIsStale(t *testing.T) {
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	draftOf := func(origins ...string) *draft {
		d := &draft{table: sdk.NewTable(), at: at, meta: draftMeta{code: "same"}}
		for _, o := range origins {
			d.meta.origins = append(d.meta.origins, engine.InputOrigin{Block: o, Draft: true, DraftAt: &at})
		}
		return d
	}
	for _, tc := range []struct {
		name, upstream string
		read           []string
		want           string
	}{
		{"unchanged", "[a]", []string{"a"}, "current"},
		{"rewired", "[c]", []string{"a"}, "stale"},
		{"one more", "[a, c]", []string{"a"}, "stale"},
		{"swapped", "[c, a]", []string{"a", "c"}, "stale"},
		{"same two", "[a, c]", []string{"a", "c"}, "current"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pl := wiredPipeline(t, tc.upstream)
			in := judgeInput{pl: pl, stored: map[string]engine.StoredState{},
				drafts: map[string]*draft{"a": draftOf(), "c": draftOf(), "b": draftOf(tc.read...)},
				code:   map[string]string{"a": "same", "c": "same", "b": "same"}}
			var b CellState
			for _, c := range judgeCells(in) {
				if c.Block == "b" {
					b = c
				}
			}
			if b.Draft == nil || b.Draft.State != tc.want || (tc.want == "stale") != !b.Fresh {
				t.Fatalf("b reads %s, its draft read %v: %+v fresh=%v, want %s", tc.upstream, tc.read, b.Draft, b.Fresh, tc.want)
			}
			if tc.want == "stale" && b.Draft.Cause != CauseUpstream {
				t.Fatalf("cause %q (%s), want %q", b.Draft.Cause, b.Draft.Reason, CauseUpstream)
			}
		})
	}
}
