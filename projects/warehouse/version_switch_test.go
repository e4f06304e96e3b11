package warehouse

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

func TestSwitchBatchPromoteAndRevert(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wh := openTemp(t, Options{Retention: 1})
	publish(t, wh, "m", "2024-01-01", ids(t, 1))
	s1 := stage(t, wh, "m", "2024-01-01", ids(t, 2))
	s2 := stage(t, wh, "m", "2024-01-02", ids(t, 3)) // a new partition
	promote := []Switch{
		{Product: "m", Partition: "2024-01-01", To: s1.Version, Expect: ExpectOlder},
		{Product: "m", Partition: "2024-01-02", To: s2.Version, Expect: ExpectOlder},
	}
	if err := wh.SwitchBatch(ctx, "bf1", promote, ""); err != nil {
		t.Fatal(err)
	}
	if got := idsOf(read(t, wh, "m", Selection{})); !reflect.DeepEqual(got, []int64{2, 3}) {
		t.Fatalf("after promote: %v", got)
	}
	// Retention keeps 1 version besides the current one, yet version 1 (the
	// rollback target) survives further writes while version 2 is current.
	stage(t, wh, "m", "2024-01-01", ids(t, 9))
	if vs, _ := versionsOf(t, wh, "m", "2024-01-01"); !reflect.DeepEqual(vs, []int{1, 2, 3}) {
		t.Fatalf("versions kept: %v", vs)
	}
	back, err := wh.RevertBatch(ctx, "bf1")
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 2 || back[0].To != 1 || back[1].To != 0 {
		t.Fatalf("reverted: %+v", back)
	}
	if got := idsOf(read(t, wh, "m", Selection{})); !reflect.DeepEqual(got, []int64{1}) {
		t.Fatalf("after revert: %v (2024-01-02 has no current version again)", got)
	}
	if _, err := wh.RevertBatch(ctx, "bf1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second revert: %v", err)
	}
}

func TestSwitchBatchConflicts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wh := openTemp(t)
	publish(t, wh, "m", "2024-01-01", ids(t, 1))
	s := stage(t, wh, "m", "2024-01-01", ids(t, 2))
	publish(t, wh, "m", "2024-01-01", ids(t, 3)) // newer than the staged version
	s2 := stage(t, wh, "m", "2024-01-02", ids(t, 4))
	err := wh.SwitchBatch(ctx, "bf", []Switch{
		{Product: "m", Partition: "2024-01-01", To: s.Version, Expect: ExpectOlder},
		{Product: "m", Partition: "2024-01-02", To: s2.Version, Expect: ExpectOlder},
	}, "")
	var ce *SwitchConflictError
	if !errors.As(err, &ce) || len(ce.Conflicts) != 1 || ce.Conflicts[0].Current != 3 {
		t.Fatalf("promote over a newer version: %v", err)
	}
	assertErrContains(t, err, "m 2024-01-01: version 3 is current, newer than version 2")
	if got := idsOf(read(t, wh, "m", Selection{})); !reflect.DeepEqual(got, []int64{3}) {
		t.Fatalf("a refused batch switched something: %v", got)
	}
	// A revert with a newer version in the way is refused for the lot.
	if err := wh.SwitchBatch(ctx, "bf2", []Switch{{Product: "m", Partition: "2024-01-02", To: s2.Version, Expect: 0}}, ""); err != nil {
		t.Fatal(err)
	}
	publish(t, wh, "m", "2024-01-02", ids(t, 5))
	_, err = wh.RevertBatch(ctx, "bf2")
	assertErrContains(t, err, "m 2024-01-02: version 2 is current, not version 1")
}

func TestPinnedVersionsSurviveRetention(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wh := openTemp(t, Options{Retention: 1})
	publish(t, wh, "m", "2024-01-01", ids(t, 1))
	o := out("m", "2024-01-01", ids(t, 2))
	o.Pin = "bf"
	if _, err := wh.Stage(ctx, []Output{o}); err != nil {
		t.Fatal(err)
	}
	for i := int64(3); i < 6; i++ {
		publish(t, wh, "m", "2024-01-01", ids(t, i))
	}
	if vs, cur := versionsOf(t, wh, "m", "2024-01-01"); !reflect.DeepEqual(vs, []int{2, 5}) || cur != 5 {
		t.Fatalf("versions %v current %d: want the pinned version 2 kept", vs, cur)
	}
	// The one-partition lookup agrees with the list, and finds nothing
	// where nothing is pinned.
	all, err := wh.Pinned(ctx, "bf")
	if err != nil || len(all) != 1 {
		t.Fatalf("pinned %+v %v", all, err)
	}
	one, found, err := wh.PinnedIn(ctx, "bf", "m", "2024-01-01")
	if err != nil || !found || one != all[0] || one.Version != 2 || one.Current != 5 {
		t.Fatalf("pinned in 2024-01-01: %+v %v %v, want %+v", one, found, err, all[0])
	}
	if _, found, err := wh.PinnedIn(ctx, "bf", "m", "2024-01-02"); found || err != nil {
		t.Fatalf("pinned in 2024-01-02: %v %v, want none", found, err)
	}
	if err := wh.Unpin(ctx, "bf"); err != nil {
		t.Fatal(err)
	}
	publish(t, wh, "m", "2024-01-01", ids(t, 6))
	if vs, _ := versionsOf(t, wh, "m", "2024-01-01"); !reflect.DeepEqual(vs, []int{6}) {
		t.Fatalf("after unpin: %v", vs)
	}
}

// ExpectBasedOn refuses a promote where the partition's current version
// changed since the staged version was planned, even to an older one.
func TestSwitchBatchExpectBasedOn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wh := openTemp(t)
	publish(t, wh, "m", "2024-01-01", ids(t, 1))
	publish(t, wh, "m", "2024-01-01", ids(t, 2))
	s := stage(t, wh, "m", "2024-01-01", ids(t, 3)) // planned against v2
	if err := wh.Rollback(ctx, "m", "2024-01-01", 1); err != nil {
		t.Fatal(err)
	}
	err := wh.SwitchBatch(ctx, "bf", []Switch{{Product: "m", Partition: "2024-01-01", To: s.Version, Expect: ExpectBasedOn}}, "")
	assertErrContains(t, err, "m 2024-01-01: version 1 is current, not version 2")
	if err := wh.Rollback(ctx, "m", "2024-01-01", 2); err != nil {
		t.Fatal(err)
	}
	if err := wh.SwitchBatch(ctx, "bf", []Switch{{Product: "m", Partition: "2024-01-01", To: s.Version, Expect: ExpectBasedOn}}, ""); err != nil {
		t.Fatal(err)
	}
}
