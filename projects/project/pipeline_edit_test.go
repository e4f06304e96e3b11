package project

import (
	"strings"
	"testing"
)

func TestAddAndRemoveBlockKeepTheFile(t *testing.T) {
	src := `# daily orders
partitions: {interval: day, timezone: UTC}
blocks:
  - id: orders # the source
  - id: totals
    upstream: [orders]
`
	added, err := AddBlock([]byte(src), "report", []string{"totals"})
	if err != nil {
		t.Fatal(err)
	}
	want := src + "  - id: report\n    upstream: [totals]\n"
	if string(added) != want {
		t.Fatalf("after AddBlock:\n%s\nwant:\n%s", added, want)
	}
	removed, err := RemoveBlock(added, "totals")
	if err != nil {
		t.Fatal(err)
	}
	if s := string(removed); strings.Contains(s, "id: totals") || !strings.Contains(s, "# daily orders") || !strings.Contains(s, "- id: orders # the source") || !strings.Contains(s, "- id: report") {
		t.Fatalf("after RemoveBlock:\n%s", s)
	}
}

func TestAddBlockToEmptyOrFlowLists(t *testing.T) {
	for _, src := range []string{"", "blocks: []\n", "blocks:\n"} {
		out, err := AddBlock([]byte(src), "first", nil)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if string(out) != "blocks:\n  - id: first\n" {
			t.Fatalf("%q became %q", src, out)
		}
	}
}

func TestEditErrors(t *testing.T) {
	if _, err := RemoveBlock([]byte("blocks:\n  - id: a\n"), "b"); err == nil || !strings.Contains(err.Error(), `block "b" is not in the pipeline file`) {
		t.Fatalf("remove unknown: %v", err)
	}
	if _, err := AddBlock([]byte("- a\n- b\n"), "x", nil); err == nil || !strings.Contains(err.Error(), "not a mapping") {
		t.Fatalf("add to a list file: %v", err)
	}
	if _, err := AddBlock([]byte("blocks: 3\n"), "x", nil); err == nil || !strings.Contains(err.Error(), "blocks is not a list") {
		t.Fatalf("add to a scalar blocks: %v", err)
	}
}
