package warehouse

import (
	"context"
	"errors"
	"testing"
)

// An eager group writes each request as it comes, and nothing is seen (or
// answered) before its one COMMIT; a partition written twice in it gets
// two versions, the second current.
func TestGroupTxWritesAsRequestsComeAndCommitsOnce(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	publish(t, wh, "orders", "2024-03-01", ids(t, 1))
	before := wh.commits.Load()
	g := wh.BeginGroup(context.Background())
	first := groupOf(out("orders", "2024-03-01", ids(t, 2)), out("orders", "2024-03-02", ids(t, 3)))
	g.Add(first...)
	stmts := wh.statements.Load()
	second := groupOf(out("orders", "2024-03-01", ids(t, 4)))
	second = append(second, &GroupPublish{})
	g.Add(second...)
	if wh.statements.Load() == stmts {
		t.Fatal("the second request wrote nothing before the COMMIT: not eager")
	}
	if n := scalar(t, wh, `SELECT count(*) FROM _strata.versions`); n != 1 {
		t.Fatalf("a reader sees %d versions before the group's COMMIT, want 1", n)
	}
	if first[0].Versions != nil || first[0].Err != nil {
		t.Fatal("a request was answered before the COMMIT")
	}
	g.Commit()
	if n := wh.commits.Load() - before; n != 1 {
		t.Fatalf("the group took %d transactions, want 1", n)
	}
	for i, r := range append(first, second...) {
		if r.Err != nil {
			t.Fatalf("request %d: %v", i, r.Err)
		}
	}
	if v := second[0].Versions; len(v) != 1 || v[0].Version != 3 || !v[0].Current {
		t.Fatalf("the partition's second write in the group: %v, want current v3", v)
	}
	if vs, current := versionsOf(t, wh, "orders", "2024-03-01"); len(vs) != 3 || current != 3 {
		t.Fatalf("2024-03-01: versions %v current v%d, want 3 and v3", vs, current)
	}
	checkIntegrity(t, wh)
}

// DuckDB has no savepoint: a request failing in an eager group after
// others were written aborts the transaction. It still fails alone: the
// others, those written before it and those that come after, commit
// together in one transaction; the ride-along requests are not written
// (ErrGroupSplit), as in PublishGroup.
func TestGroupTxFailsARequestAloneMidTransaction(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	publish(t, wh, "Refunds", "2024-03-01", ids(t, 1))
	before := wh.commits.Load()
	g := wh.BeginGroup(context.Background())
	early := groupOf(out("orders", "2024-03-01", ids(t, 1)), out("orders", "2024-03-02", ids(t, 2)))
	early = append(early, &GroupPublish{})
	g.Add(early...)
	bad := groupOf(out("refunds", "2024-03-02", ids(t, 3))) // refused inside the transaction
	g.Add(bad...)
	late := groupOf(out("orders", "2024-03-03", ids(t, 4)))
	late = append(late, &GroupPublish{})
	g.Add(late...)
	g.Commit()
	assertErrContains(t, bad[0].Err, "differs only in case")
	for _, r := range []*GroupPublish{early[2], late[1]} {
		if !errors.Is(r.Err, ErrGroupSplit) {
			t.Fatalf("a request riding with the group: %v, want ErrGroupSplit", r.Err)
		}
	}
	for i, r := range []*GroupPublish{early[0], early[1], late[0]} {
		if r.Err != nil || len(r.Versions) != 1 || !r.Versions[0].Current {
			t.Fatalf("good request %d: %v %v, want committed beside the failed one", i, r.Versions, r.Err)
		}
	}
	if n := wh.commits.Load() - before; n != 1 {
		t.Fatalf("%d transactions committed, want 1 for the three good requests", n)
	}
	if n := scalar(t, wh, `SELECT count(*) FROM _strata.versions WHERE product = 'orders'`); n != 3 {
		t.Fatalf("orders has %d versions, want 3", n)
	}
	if n := scalar(t, wh, `SELECT count(*) FROM _strata.versions WHERE lower(product) = 'refunds'`); n != 1 {
		t.Fatalf("refunds has %d versions, want only the first product's 1", n)
	}
	// The writer is free again, and a request refused before any statement
	// (bad input) in a new group fails alone too.
	g = wh.BeginGroup(context.Background())
	malformed := out("orders", "2024-03-05", ids(t, 6))
	malformed.Partition = ""
	reqs := append(groupOf(out("orders", "2024-03-04", ids(t, 5)), malformed), &GroupPublish{})
	g.Add(reqs...)
	g.Commit()
	if reqs[0].Err != nil || reqs[1].Err == nil || !errors.Is(reqs[2].Err, ErrGroupSplit) {
		t.Fatalf("a good, a malformed and a riding request: %v, %v, %v", reqs[0].Err, reqs[1].Err, reqs[2].Err)
	}
	checkIntegrity(t, wh)
}

// A request whose context ended before it was written is not written, and
// the rest of its group commits.
func TestGroupTxSkipsARequestWhoseContextEnded(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	g := wh.BeginGroup(context.Background())
	reqs := groupOf(out("orders", "2024-03-01", ids(t, 1)), out("orders", "2024-03-02", ids(t, 2)))
	g.Add(reqs[0])
	reqs[1].Ctx = gone
	g.Add(reqs[1])
	g.Commit()
	if reqs[0].Err != nil || !errors.Is(reqs[1].Err, context.Canceled) {
		t.Fatalf("a live and a cancelled request: %v, %v", reqs[0].Err, reqs[1].Err)
	}
	if n := scalar(t, wh, `SELECT count(*) FROM _strata.versions`); n != 1 {
		t.Fatalf("%d versions, want the live request's 1", n)
	}
}
