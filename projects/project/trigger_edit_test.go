package project

import (
	"strings"
	"testing"
)

// TestSetTriggerKeepsTheFile: the trigger form edits the pipeline file in
// place; comments, other triggers and the fields around it stay.
func TestSetTriggerKeepsTheFile(t *testing.T) {
	t.Parallel()
	src := `# orders pipeline
partitions: {interval: day, timezone: America/New_York}
blocks:
  - id: a
triggers:
  # the nightly load
  - id: nightly
    schedule: {cron: "30 2 * * *"}
    run: latest-complete # yesterday
  - id: external
    api: true
`
	out, err := SetTrigger([]byte(src), "nightly", TriggerForm{ID: "nightly", Kind: TriggerSchedule, Cron: "0 6 * * 1-5", Timezone: "Europe/Paris", CatchUp: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := `# orders pipeline
partitions: {interval: day, timezone: America/New_York}
blocks:
  - id: a
triggers:
  # the nightly load
  - id: nightly
    schedule:
      cron: "0 6 * * 1-5"
      timezone: Europe/Paris
    catch_up:
      max: 3
  - id: external
    api: true
`
	if string(out) != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
	// The kind changes: the schedule goes, when comes.
	out, err = SetTrigger(out, "nightly", TriggerForm{ID: "on-orders", Kind: TriggerEvent, Product: "orders", Run: "affected"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "  - id: on-orders\n    when:\n      product: orders\n    run: affected\n  - id: external") {
		t.Fatalf("to an event trigger:\n%s", out)
	}
	// New keys: changes written; back to new versions, it goes.
	out, err = SetTrigger(out, "on-orders", TriggerForm{ID: "on-orders", Kind: TriggerEvent, Product: "orders", Changes: ChangesNewKey})
	if err != nil || !strings.Contains(string(out), "  - id: on-orders\n    when:\n      product: orders\n      changes: new-key\n  - id: external") {
		t.Fatalf("to a new-key trigger: %v\n%s", err, out)
	}
	out, err = SetTrigger(out, "on-orders", TriggerForm{ID: "on-orders", Kind: TriggerEvent, Product: "orders"})
	if err != nil || !strings.Contains(string(out), "  - id: on-orders\n    when:\n      product: orders\n  - id: external") {
		t.Fatalf("back to new versions: %v\n%s", err, out)
	}
	// Appended to a file without triggers; removed, the key goes with its last trigger.
	out, err = SetTrigger([]byte("blocks:\n  - id: a\n"), "", TriggerForm{ID: "manual", Kind: TriggerAPI})
	if err != nil || string(out) != "blocks:\n  - id: a\ntriggers:\n  - id: manual\n    api: true\n" {
		t.Fatalf("appended: %v\n%s", err, out)
	}
	if TriggerIndex(out, "manual") != 0 || TriggerIndex(out, "x") != -1 {
		t.Fatal("TriggerIndex")
	}
	out, err = RemoveTrigger(out, "manual")
	if err != nil || string(out) != "blocks:\n  - id: a\n" {
		t.Fatalf("removed: %v\n%s", err, out)
	}
	if _, err := SetTrigger([]byte(src), "gone", TriggerForm{ID: "x", Kind: TriggerAPI}); err == nil || !strings.Contains(err.Error(), `"gone" is not in the pipeline file`) {
		t.Fatalf("an unknown trigger: %v", err)
	}
	if _, err := SetTrigger([]byte(src), "", TriggerForm{ID: "x", Kind: "hourly"}); err == nil || !strings.Contains(err.Error(), "want schedule, event or api") {
		t.Fatalf("an unknown kind: %v", err)
	}
}
