package warehouse

import (
	"context"
	"errors"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
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
	// A request carrying only what must be durable with the whole group
	// (a starting run's state): not written once the group split.
	reqs = append(reqs, &GroupPublish{})
	before := wh.commits.Load()
	wh.PublishGroup(context.Background(), reqs)
	if last := reqs[len(reqs)-1]; !errors.Is(last.Err, ErrGroupSplit) {
		t.Fatalf("the request riding with the group: %v, want ErrGroupSplit", last.Err)
	}
	reqs = reqs[:len(reqs)-1]
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
	reqs = append(groupOf(out("orders", "2024-03-04", ids(t, 5)), bad), &GroupPublish{})
	wh.PublishGroup(context.Background(), reqs)
	if reqs[0].Err != nil || reqs[1].Err == nil || !errors.Is(reqs[2].Err, ErrGroupSplit) {
		t.Fatalf("a good, a malformed and a riding request: %v, %v, %v", reqs[0].Err, reqs[1].Err, reqs[2].Err)
	}
}

// A group's rows go into each storage table in one INSERT (table_batch.go):
// every version gets exactly its own rows, NULLs included, also for a
// partition written twice in the group and for an empty output.
func TestPublishGroupWritesEachVersionsRows(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	fields := cols(sdk.String("name"), sdk.Int64("n"))
	big := make([][]any, 3000) // more than one DuckDB chunk
	for i := range big {
		big[i] = row("b", int64(i))
	}
	// The storage tables exist already: what is counted below is the group's own.
	publish(t, wh, "facts", "2024-02-01", table(t, fields, row("x", int64(0))))
	publish(t, wh, "other", "2024-02-01", ids(t, 0))
	reqs := groupOf(
		out("facts", "2024-03-01", table(t, fields, row("a", int64(1)), row(nil, int64(2)))),
		out("facts", "2024-03-02", table(t, fields, big...)),
		out("facts", "2024-03-01", table(t, fields, row("c", nil))), // v2 of the first
		out("facts", "2024-03-03", table(t, fields)),
		out("other", "2024-03-01", ids(t, 7, 8)),
	)
	before := wh.statements.Load()
	wh.PublishGroup(context.Background(), reqs)
	for i, r := range reqs {
		if r.Err != nil {
			t.Fatalf("request %d: %v", i, r.Err)
		}
	}
	// BEGIN, one INSERT of rows per storage table, the catalog's INSERT
	// and flags, COMMIT: not one INSERT per output.
	if n := wh.statements.Load() - before; n > 6 {
		t.Fatalf("%d statements for a group of 5 outputs over 2 storage tables, want at most 6", n)
	}
	table := qualified(storageTableName("facts", fields))
	assertRows(t, query(t, wh, `SELECT * FROM (SELECT _partition, _version::BIGINT AS _version, name, n, count(*) OVER (PARTITION BY _partition, _version) AS c
		FROM `+table+`) WHERE _partition >= '2024-03' AND (_partition <> '2024-03-02' OR n < 2) ORDER BY _partition, _version, n NULLS LAST`),
		row("2024-03-01", int64(1), "a", int64(1), int64(2)), row("2024-03-01", int64(1), nil, int64(2), int64(2)),
		row("2024-03-01", int64(2), "c", nil, int64(1)),
		row("2024-03-02", int64(1), "b", int64(0), int64(3000)), row("2024-03-02", int64(1), "b", int64(1), int64(3000)))
	assertRows(t, query(t, wh, `SELECT sum(id) FROM `+qualified(storageTableName("other", ids(t).Schema()))), row(int64(15)))
	checkIntegrity(t, wh)
}
