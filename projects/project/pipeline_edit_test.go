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

func TestInsertMoveRenameKeepComments(t *testing.T) {
	src := `# daily orders
partitions: {interval: day, timezone: UTC}
blocks:
  - id: orders # the source
  - id: totals
    upstream: [orders]
`
	ins, err := InsertBlock([]byte(src), "cleaned", []string{"orders"}, "totals")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(src, "  - id: totals\n", "  - id: cleaned\n    upstream: [orders]\n  - id: totals\n", 1)
	if string(ins) != want {
		t.Fatalf("after InsertBlock:\n%s\nwant:\n%s", ins, want)
	}
	moved, err := MoveBlock(ins, "totals", "cleaned")
	if err != nil {
		t.Fatal(err)
	}
	if s := string(moved); !strings.Contains(s, "- id: orders # the source\n  - id: totals\n    upstream: [orders]\n  - id: cleaned\n") {
		t.Fatalf("after MoveBlock:\n%s", s)
	}
	if end, err := MoveBlock(moved, "orders", ""); err != nil || !strings.HasSuffix(string(end), "  - id: orders # the source\n") {
		t.Fatalf("move to the end: %v\n%s", err, end)
	}
	renamed, err := RenameBlock(moved, "orders", "raw_orders")
	if err != nil {
		t.Fatal(err)
	}
	if s := string(renamed); strings.Contains(s, "[orders]") || strings.Count(s, "[raw_orders]") != 2 || !strings.Contains(s, "- id: raw_orders # the source") || !strings.Contains(s, "# daily orders") {
		t.Fatalf("after RenameBlock:\n%s", s)
	}
	if _, err := RenameBlock(renamed, "totals", "cleaned"); err == nil || !strings.Contains(err.Error(), `already has a block "cleaned"`) {
		t.Fatalf("rename onto another block: %v", err)
	}
	if _, err := InsertBlock(renamed, "x", nil, "nope"); err == nil || !strings.Contains(err.Error(), `"nope" is not in the pipeline file`) {
		t.Fatalf("insert before an unknown block: %v", err)
	}
}

func TestSetBlockNote(t *testing.T) {
	src := "blocks:\n  - id: orders\n    upstream: []\n"
	out, err := SetBlockNote([]byte(src), "orders", "## Orders\n\nOne row per order.\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "blocks:\n  - id: orders\n    note: |-\n      ## Orders\n\n      One row per order.\n    upstream: []\n"
	if string(out) != want {
		t.Fatalf("with a note:\n%s\nwant:\n%s", out, want)
	}
	proj, probs := loadProject(t, writeProject(t, with(sqlBlocks("orders"), map[string]string{"pipelines/p.yaml": string(out)})))
	if len(probs) != 0 {
		t.Fatal(probs)
	}
	if p := proj.Pipelines["p"]; p.Blocks[0].Note != "## Orders\n\nOne row per order." {
		t.Fatalf("loaded note %q", p.Blocks[0].Note)
	}
	cleared, err := SetBlockNote(out, "orders", "")
	if err != nil || string(cleared) != src {
		t.Fatalf("cleared: %v\n%s", err, cleared)
	}
}

func TestSetEndNote(t *testing.T) {
	src := "# comment kept\nblocks:\n  - id: orders\n    upstream: []\ntriggers: []\n"
	out, err := SetEndNote([]byte(src), "## What next\n\nShip it.\n")
	if err != nil {
		t.Fatal(err)
	}
	want := src + "end_note: |-\n  ## What next\n\n  Ship it.\n"
	if string(out) != want {
		t.Fatalf("with an end note:\n%s\nwant:\n%s", out, want)
	}
	proj, probs := loadProject(t, writeProject(t, with(sqlBlocks("orders"), map[string]string{"pipelines/p.yaml": string(out)})))
	if len(probs) != 0 {
		t.Fatal(probs)
	}
	if n := proj.Pipelines["p"].EndNote; n != "## What next\n\nShip it." {
		t.Fatalf("loaded end note %q", n)
	}
	// Edited in place, then removed: the file is as it was.
	again, err := SetEndNote(out, "one line")
	if err != nil || !strings.HasSuffix(string(again), "triggers: []\nend_note: one line\n") {
		t.Fatalf("replaced: %v\n%s", err, again)
	}
	cleared, err := SetEndNote(again, "")
	if err != nil || string(cleared) != src {
		t.Fatalf("cleared: %v\n%s", err, cleared)
	}
	if _, err := SetEndNote([]byte("- a list\n"), "x"); err == nil {
		t.Fatal("a file that is not a mapping took an end note")
	}
}

func TestNewPipelineFileLoads(t *testing.T) {
	text, err := NewPipelineFile("Orders by day", PartitionConfig{Interval: "day", Timezone: "Europe/Paris", Start: "2024-01-01"}, "orders")
	if err != nil {
		t.Fatal(err)
	}
	want := "# Created in the Strata notebook. Blocks run in DAG order; each lists its upstream blocks.\ndescription: Orders by day\npartitions:\n  interval: day\n  timezone: Europe/Paris\n  start: \"2024-01-01\"\nblocks:\n  - id: orders\n"
	if string(text) != want {
		t.Fatalf("got:\n%s\nwant:\n%s", text, want)
	}
	if _, probs := loadProject(t, writeProject(t, with(sqlBlocks("orders"), map[string]string{"pipelines/p.yaml": string(text)}))); len(probs) != 0 {
		t.Fatal(probs)
	}
	empty, _ := NewPipelineFile("", PartitionConfig{Interval: "none"}, "")
	if string(empty) != "# Created in the Strata notebook. Blocks run in DAG order; each lists its upstream blocks.\npartitions:\n  interval: none\nblocks: []\n" {
		t.Fatalf("empty:\n%s", empty)
	}
}
