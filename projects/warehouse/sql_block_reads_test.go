package warehouse

import (
	"context"
	"database/sql/driver"
	"testing"
	"time"
)

// holdCommit holds every write transaction after its rows are written
// until release is closed, saying on writing that it holds one.
type holdCommit struct{ writing, release chan struct{} }

func (h holdCommit) BeforeCommit(driver.Conn, []any) error {
	h.writing <- struct{}{}
	<-h.release
	return nil
}
func (holdCommit) AfterCommit(error) {}

// A SQL block that reads a product by name runs while a write transaction
// is in progress, reading what was committed before it; once that write
// committed, the next block sees the product it created.
//
// Before, the block took the writer's lock to look up the product names
// and so waited for the whole transaction: in a backfill, every SQL block
// of the runs computing beside a group commit stopped until it ended
// (seen: the block never finished while the write was held).
func TestSQLBlockReadsByNameWhileAWriteIsInProgress(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wh := openTemp(t)
	v1 := publish(t, wh, "events", "2024-03-01", ids(t, 1, 2, 3))
	h := holdCommit{writing: make(chan struct{}), release: make(chan struct{})}
	wh.SetCommitHook(h)
	published := make(chan error, 1)
	go func() {
		_, err := wh.Publish(ctx, []Output{out("events", "2024-03-02", ids(t, 4, 5)), out("fresh", "2024-03-02", ids(t, 6))})
		published <- err
	}()
	<-h.writing
	type answer struct {
		n      any
		byName [][]VersionRef
		err    error
	}
	ran := make(chan answer, 1)
	go func() {
		got, _, byName, err := wh.RunSQLBlock(ctx, `SELECT count(*) AS n FROM events`, nil, nil)
		a := answer{byName: byName, err: err}
		if err == nil {
			a.n = got.Column("n").Value(0)
		}
		ran <- a
	}()
	var a answer
	select {
	case a = <-ran:
	case <-time.After(time.Minute):
		close(h.release)
		t.Fatal("the SQL block did not finish while a write transaction was in progress: it waits for the writer's lock")
	}
	close(h.release)
	if err := <-published; err != nil {
		t.Fatal(err)
	}
	if a.err != nil {
		t.Fatal(a.err)
	}
	if a.n != int64(3) {
		t.Errorf("count = %v, want 3: the rows committed before the write", a.n)
	}
	if len(a.byName) != 1 || len(a.byName[0]) != 1 || a.byName[0][0].Version != v1.Version || a.byName[0][0].Partition != "2024-03-01" {
		t.Errorf("read by name %v, want only events 2024-03-01 version %d", a.byName, v1.Version)
	}

	// The product the write created is known to the next block.
	wh.SetCommitHook(nil)
	_, _, byName, err := wh.RunSQLBlock(ctx, `SELECT count(*) AS n FROM fresh`, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(byName) != 1 || len(byName[0]) != 1 || byName[0][0].Product != "fresh" {
		t.Errorf("read by name %v, want fresh 2024-03-02", byName)
	}
}
