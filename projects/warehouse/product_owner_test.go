package warehouse

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// The first publish of a product records its pipeline as the owner; a
// publish by another pipeline is refused and changes nothing; a transfer
// moves it, and the record survives a reopen.
func TestPublishRecordsAndGuardsTheOwner(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.duckdb")
	wh := openAt(t, path, Options{}) // the backend under test
	var err error
	o := out("sales", "2024-01-01", ids(t, 1))
	o.Pipeline = "main"
	if _, err := wh.Publish(ctx, []Output{o}); err != nil {
		t.Fatal(err)
	}
	o2 := out("sales", "2024-01-01", ids(t, 99))
	o2.Pipeline = "copy"
	_, err = wh.Publish(ctx, []Output{o2})
	var ne *NotOwnerError
	if !errors.As(err, &ne) || ne.Owner != "main" || !errors.Is(err, ErrNotOwner) {
		t.Fatalf("publish by another pipeline: %v", err)
	}
	if _, err := wh.Stage(ctx, []Output{o2}); !errors.Is(err, ErrNotOwner) {
		t.Fatalf("stage by another pipeline: %v", err)
	}
	assertRows(t, query(t, wh, `SELECT * FROM sales`), row("2024-01-01", int64(1)))
	if from, err := wh.TransferProduct(ctx, "sales", "copy"); err != nil || from != "main" {
		t.Fatalf("transfer: %q %v", from, err)
	}
	if _, err := wh.Publish(ctx, []Output{o2}); err != nil {
		t.Fatalf("publish by the new owner: %v", err)
	}
	if _, err := wh.TransferProduct(ctx, "nothing", "copy"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("transfer of an unknown product: %v", err)
	}
	if err := wh.Close(); err != nil {
		t.Fatal(err)
	}
	wh = openAt(t, path, Options{})
	defer wh.Close()
	owners, err := wh.OwnerPipelines(ctx)
	if err != nil || len(owners) != 1 || owners["sales"] != "copy" {
		t.Fatalf("owners after reopen: %v %v", owners, err)
	}
	o.Partition = "2024-01-02"
	if _, err := wh.Publish(ctx, []Output{o}); !errors.Is(err, ErrNotOwner) {
		t.Fatalf("publish by the former owner after reopen: %v", err)
	}
}

// A rollback goes to a version that was current once: one only staged is
// refused, one promoted and replaced since is not.
func TestRollbackRefusesANeverCurrentVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wh := openTemp(t)
	publish(t, wh, "m", "2024-01-01", ids(t, 1))
	s := stage(t, wh, "m", "2024-01-01", ids(t, 2))
	if err := wh.Rollback(ctx, "m", "2024-01-01", s.Version); !errors.Is(err, ErrNeverCurrent) {
		t.Fatalf("rollback to a staged version: %v", err)
	}
	if err := wh.Promote(ctx, []VersionRef{s.Ref()}, ""); err != nil {
		t.Fatal(err)
	}
	publish(t, wh, "m", "2024-01-01", ids(t, 3))
	if err := wh.Rollback(ctx, "m", "2024-01-01", s.Version); err != nil {
		t.Fatalf("rollback to a version promoted once: %v", err)
	}
	if err := wh.Rollback(ctx, "m", "2024-01-01", 1); err != nil {
		t.Fatalf("rollback to a version published current: %v", err)
	}
}
