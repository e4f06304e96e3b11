package warehouse

import (
	"context"
	"testing"
)

// groupOf is a PublishGroup request of one output each.
func groupOf(outs ...Output) []*GroupPublish {
	reqs := make([]*GroupPublish, len(outs))
	for i, o := range outs {
		reqs[i] = &GroupPublish{Outs: []Output{o}}
	}
	return reqs
}

// A group of partitions shares one COMMIT, and each is compare-and-set on
// its own: the one whose partition another writer made current meanwhile is
// kept aside (staged) and answered with a conflict; the others become
// current in the same transaction.
func TestPublishGroupSharesACommitAndChecksEachPartition(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	publish(t, wh, "orders", "2024-03-02", ids(t, 1)) // v1, what the group plans against
	publish(t, wh, "orders", "2024-03-02", ids(t, 2)) // v2: newer work meanwhile
	var outs []Output
	for i, key := range []string{"2024-03-01", "2024-03-02", "2024-03-03"} {
		o := out("orders", key, ids(t, int64(10+i)))
		o.IfCurrent = true
		if key == "2024-03-02" {
			o.BasedOn = 1
		}
		outs = append(outs, o)
	}
	reqs := groupOf(outs...)
	before := wh.commits.Load()
	wh.PublishGroup(context.Background(), reqs)
	if n := wh.commits.Load() - before; n != 1 {
		t.Fatalf("a group of 3 took %d transactions, want 1", n)
	}
	for i, r := range reqs {
		cs := AsConflict(r.Err)
		switch {
		case i == 1 && (len(cs) != 1 || cs[0].Version != 3 || cs[0].Current != 2):
			t.Fatalf("the partition with newer work: %v, want a conflict keeping v3 aside of current v2", r.Err)
		case i != 1 && r.Err != nil:
			t.Fatalf("request %d failed with its group's conflict: %v", i, r.Err)
		case len(r.Versions) != 1:
			t.Fatalf("request %d: versions %v", i, r.Versions)
		}
	}
	if _, current := versionsOf(t, wh, "orders", "2024-03-02"); current != 2 {
		t.Fatalf("2024-03-02 current v%d, want the newer work's v2", current)
	}
	for _, key := range []string{"2024-03-01", "2024-03-03"} {
		if _, current := versionsOf(t, wh, "orders", key); current != 1 {
			t.Fatalf("%s current v%d, want 1", key, current)
		}
	}
}

// A request that fails inside the group fails alone: the others commit
// together without it (one transaction, not one each), and none of its
// rows or versions is kept.
func TestPublishGroupFailsOnePartitionAlone(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	publish(t, wh, "Refunds", "2024-03-01", ids(t, 1))
	outs := []Output{out("orders", "2024-03-01", ids(t, 1)), out("orders", "2024-03-02", ids(t, 2)),
		// Refused inside the transaction, after the orders before it ran there.
		out("refunds", "2024-03-02", ids(t, 3)),
		out("orders", "2024-03-03", ids(t, 4))}
	reqs := groupOf(outs...)
	before := wh.commits.Load()
	wh.PublishGroup(context.Background(), reqs)
	for i, r := range reqs {
		if i == 2 {
			assertErrContains(t, r.Err, "differs only in case")
			if r.Versions != nil {
				t.Fatalf("the failed request answered versions %v", r.Versions)
			}
			continue
		}
		if r.Err != nil || len(r.Versions) != 1 || !r.Versions[0].Current {
			t.Fatalf("request %d: %v %v, want committed alongside the failed one", i, r.Versions, r.Err)
		}
	}
	// The group, rolled back; the three others together; the bad one alone
	// (failing again: no commit).
	if n := wh.commits.Load() - before; n != 1 {
		t.Fatalf("%d transactions committed, want 1 for the three good requests", n)
	}
	if n := scalar(t, wh, `SELECT count(*) FROM _strata.versions WHERE product = 'orders'`); n != 3 {
		t.Fatalf("orders has %d versions, want 3", n)
	}
	if n := scalar(t, wh, `SELECT count(*) FROM _strata.versions WHERE lower(product) = 'refunds'`); n != 1 {
		t.Fatalf("refunds has %d versions, want only the first product's 1", n)
	}
	// A request refused before any transaction (bad input) fails alone too.
	bad := out("orders", "2024-03-05", ids(t, 6))
	bad.Partition = ""
	reqs = groupOf(out("orders", "2024-03-04", ids(t, 5)), bad)
	wh.PublishGroup(context.Background(), reqs)
	if reqs[0].Err != nil || reqs[1].Err == nil {
		t.Fatalf("a good and a malformed request: %v, %v", reqs[0].Err, reqs[1].Err)
	}
}
