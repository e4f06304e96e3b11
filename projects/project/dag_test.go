package project

import (
	"reflect"
	"testing"
)

func ids(bs []*Block) []string {
	out := []string{}
	for _, b := range bs {
		out = append(out, b.ID)
	}
	return out
}

func loadPipelineP(t *testing.T, pipeline string, files map[string]string) *Pipeline {
	t.Helper()
	p, _ := loadProject(t, writeProject(t, with(files, map[string]string{pf: pipeline})))
	return p.Pipelines["p"]
}

func TestDAG(t *testing.T) {
	t.Parallel()
	pl := loadPipelineP(t, lines(
		"blocks:",
		"  - id: report",
		"    upstream: [metrics, customers]",
		"  - id: raw",
		"  - id: metrics",
		"    upstream: [raw]",
		"  - id: customers",
		"  - id: audit",
		"    upstream: [raw]",
	), sqlBlocks("report", "raw", "metrics", "customers", "audit"))
	if len(pl.Problems) > 0 {
		t.Fatal(pl.Problems)
	}
	cases := []struct {
		name string
		got  []*Block
		want []string
	}{
		{"Order keeps file order among ready blocks", pl.Order(), []string{"raw", "metrics", "customers", "report", "audit"}},
		{"Roots", pl.Roots(), []string{"raw", "customers"}},
		{"Downstream", pl.Downstream("raw"), []string{"metrics", "audit"}},
		{"Downstream of a leaf", pl.Downstream("report"), []string{}},
		{"Upstream in parameter order", pl.Upstream("report"), []string{"metrics", "customers"}},
		{"Descendants", pl.Descendants("raw"), []string{"metrics", "report", "audit"}},
		{"Descendants of an unknown block", pl.Descendants("nope"), []string{}},
	}
	for _, c := range cases {
		if got := ids(c.got); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, got, c.want)
		}
	}
	if pl.Block("metrics") == nil || pl.Block("nope") != nil {
		t.Error("Block lookup is wrong")
	}
}

func TestOrderWithCycleKeepsEveryBlock(t *testing.T) {
	t.Parallel()
	pl := loadPipelineP(t, lines("blocks:", "  - id: a", "    upstream: [b]", "  - id: b", "    upstream: [a]", "  - id: c"),
		sqlBlocks("a", "b", "c"))
	if got := ids(pl.Order()); !reflect.DeepEqual(got, []string{"c", "a", "b"}) {
		t.Errorf("Order = %v", got)
	}
}

func TestFanOut(t *testing.T) {
	t.Parallel()
	pl := loadPipelineP(t, lines(
		"blocks:",
		"  - id: items",
		"    dynamic: true",
		"  - id: download",
		"    upstream: [items]",
		"  - id: lookup",
		"  - id: enrich",
		"    upstream: [download, lookup]",
		"  - id: combine",
		"    upstream: [enrich]",
		"    reduce: true",
		"  - id: after",
		"    upstream: [combine]",
	), sqlBlocks("items", "download", "lookup", "enrich", "combine", "after"))
	if len(pl.Problems) > 0 {
		t.Fatal(pl.Problems)
	}
	want := map[string]string{"items": "", "download": "items", "lookup": "", "enrich": "items", "combine": "", "after": ""}
	for id, fan := range want {
		if got := pl.Block(id).FanOut; got != fan {
			t.Errorf("%s.FanOut = %q, want %q", id, got, fan)
		}
	}
}
