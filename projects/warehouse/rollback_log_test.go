package warehouse

import (
	"context"
	"testing"
)

// TestPutBacksNameWhatARollbackMadeCurrent: a partition's rollback and a
// backfill's revert (which can leave a partition with no current version)
// are recorded; a partition counts as put back until something else is
// made current there, and a rollback to the version already current is
// none.
func TestPutBacksNameWhatARollbackMadeCurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wh := openTemp(t, Options{Retention: 5})
	publish(t, wh, "m", "2024-01-01", ids(t, 1))
	publish(t, wh, "m", "2024-01-01", ids(t, 2))
	publish(t, wh, "m", "2024-01-03", ids(t, 5))
	s := stage(t, wh, "m", "2024-01-02", ids(t, 3)) // a new partition, by a backfill
	if err := wh.SwitchBatch(ctx, "bf1", []Switch{{Product: "m", Partition: "2024-01-02", To: s.Version, Expect: ExpectOlder}}, ""); err != nil {
		t.Fatal(err)
	}
	keys := []string{"2024-01-01", "2024-01-02", "2024-01-03"}
	if pb, err := wh.PutBacks(ctx, "m", keys); err != nil || len(pb) != 0 {
		t.Fatalf("before any rollback: %+v %v", pb, err)
	}
	if err := wh.Rollback(ctx, "m", "2024-01-01", 1); err != nil {
		t.Fatal(err)
	}
	if err := wh.Rollback(ctx, "m", "2024-01-03", 1); err != nil { // already current
		t.Fatal(err)
	}
	if _, err := wh.RevertBatch(ctx, "bf1"); err != nil {
		t.Fatal(err)
	}
	pb, err := wh.PutBacks(ctx, "m", keys)
	if err != nil {
		t.Fatal(err)
	}
	if len(pb) != 2 || pb["2024-01-01"].Version != 1 || pb["2024-01-01"].At.IsZero() || pb["2024-01-02"].Version != 0 {
		t.Fatalf("put back: %+v, want 2024-01-01 v1 and 2024-01-02 none", pb)
	}
	publish(t, wh, "m", "2024-01-01", ids(t, 7))
	if pb, err := wh.PutBacks(ctx, "m", keys); err != nil || len(pb) != 1 || pb["2024-01-02"].Version != 0 {
		t.Fatalf("after a publish over the rollback: %+v %v, want only 2024-01-02", pb, err)
	}
}
