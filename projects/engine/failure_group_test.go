package engine

import "testing"

func TestErrorClassAndGroups(t *testing.T) {
	t.Parallel()
	for msg, want := range map[string]string{
		"source offline for 2024-03-04: 503 after 3 tries":           "source offline for <time>: <n> after <n> tries",
		"at 2024-03-10T02:30:00-05:00 the feed was late by 12.5 min": "at <time> the feed was late by <n> min",
		`column "amount": value 'n/a' is not a number`:               "column <value>: value <value> is not a number",
		"week 2024-W10 has no rows (run 9f8e7d6c5b4a3f2e)":           "week <week> has no rows (run <id>)",
	} {
		if got := ErrorClass(msg); got != want {
			t.Errorf("ErrorClass(%q) = %q, want %q", msg, got, want)
		}
	}
	gs := GroupFailures([]FailedPartition{
		{Key: "a", State: StateFailed, Block: "x", Error: "bad row 1"},
		{Key: "b", State: StateFailed, Block: "y", Error: "bad row 2"}, // another block: another group
		{Key: "c", State: StateFailed, Block: "x", Error: "bad row 3"},
		{Key: "d", State: StateCancelled},
		{Key: "e", State: StateFailed, Block: "x", Error: "timeout"},
	})
	var got []string
	for _, g := range gs {
		s := string(g.State) + "/" + g.Block + "/" + g.Class + ":"
		for _, p := range g.Partitions {
			s += p.Key
		}
		got = append(got, s)
	}
	want := []string{"failed/x/bad row <n>:ac", "failed/y/bad row <n>:b", "cancelled//:d", "failed/x/timeout:e"}
	if len(got) != len(want) {
		t.Fatalf("groups %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("groups %v, want %v", got, want)
		}
	}
}
