package warehouse

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A warehouse whose file was removed or replaced under it refuses writes
// with ErrFileChanged (it used to write on into the orphaned file), and
// stays refused if a file reappears at the path.
func TestChangedFileRefusesWrites(t *testing.T) {
	t.Parallel()
	for _, change := range []string{"removed", "replaced", "lock removed"} {
		wh := openTemp(t)
		publish(t, wh, "p", "2024-01-01", ids(t, 1))
		if err := wh.Healthy(); err != nil {
			t.Fatal(err)
		}
		path := wh.Path()
		switch change {
		case "removed":
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		case "replaced":
			if err := os.Rename(path, path+".old"); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		case "lock removed":
			if err := os.Remove(path + ".lock"); err != nil {
				t.Fatal(err)
			}
		}
		_, err := wh.Publish(context.Background(), []Output{out("p", "2024-01-02", ids(t, 2))})
		if !errors.Is(err, ErrFileChanged) || !strings.Contains(err.Error(), path) {
			t.Fatalf("%s: publish: %v, want ErrFileChanged naming %s", change, err, path)
		}
		if change == "removed" {
			_ = os.WriteFile(path, nil, 0o644) // a file reappears: still not the one opened
		}
		if err := wh.Healthy(); !errors.Is(err, ErrFileChanged) {
			t.Fatalf("%s: healthy: %v", change, err)
		}
	}
}

// A warehouse file cut short at the tail (a full disk, an interrupted copy)
// is refused at open, saying what happened and what to do; it used to open
// and fail on the first write with DuckDB's raw "Could not read enough
// bytes" IO error.
func TestTruncatedFileIsRefusedAtOpen(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "warehouse.duckdb")
	wh, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		publish(t, wh, "p", fmt.Sprintf("2024-01-%02d", i+1), ids(t, int64(i)))
	}
	if err := wh.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, st.Size()-100_000); err != nil {
		t.Fatal(err)
	}
	_, err = Open(context.Background(), path, Options{})
	if err == nil || !strings.Contains(err.Error(), "truncated") || !strings.Contains(err.Error(), "restore") || !strings.Contains(err.Error(), path) {
		t.Fatalf("open of a truncated file: %v", err)
	}
	// It can be opened again once it is whole (the lock was released).
	if err := os.Truncate(path, st.Size()); err != nil {
		t.Fatal(err)
	}
}

// Read-only opens read what is there, coexist with each other, refuse
// writes, and keep a writer out while they read (and are kept out by one).
func TestReadOnlyOpen(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "warehouse.duckdb")
	if _, err := Open(context.Background(), path, Options{ReadOnly: true}); err == nil {
		t.Fatal("read-only open of a missing file succeeded")
	}
	wh, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	publish(t, wh, "p", "2024-01-01", ids(t, 1, 2))
	if _, err := Open(context.Background(), path, Options{ReadOnly: true}); err == nil {
		t.Fatal("read-only open while a writer holds it succeeded")
	}
	if err := wh.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := Open(context.Background(), path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	tbl, err := ro.Read(context.Background(), "p", Selection{}, 0)
	if err != nil || tbl.Len() != 2 {
		t.Fatalf("read: %v %v", tbl, err)
	}
	if _, err := ro.Publish(context.Background(), []Output{out("p", "2024-01-02", ids(t, 3))}); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("publish on a read-only warehouse: %v", err)
	}
	var locked *LockedError
	if _, err := Open(context.Background(), path, Options{}); !errors.As(err, &locked) {
		t.Fatalf("a writer while a reader reads: %v", err)
	}
}

// A file whose free tail blocks DuckDB cut off itself is whole (the numbers
// of a five-year demo backfill's warehouse, which open used to refuse as
// truncated); a cut inside a block or into used blocks is not.
func TestCutShort(t *testing.T) {
	const bs = 262144
	for _, c := range []struct {
		size        int64
		total, used int64
		want        bool
	}{
		{duckdbHeaderSize + 301*bs, 306, 240, false}, // DuckDB dropped 5 free tail blocks
		{duckdbHeaderSize + 306*bs, 306, 240, false},
		{duckdbHeaderSize + 301*bs - 100_000, 306, 240, true}, // cut inside a block
		{duckdbHeaderSize + 239*bs, 306, 240, true},           // used blocks gone
		{duckdbHeaderSize - 1, 3, 3, true},
		{0, 0, 0, false}, // nothing counted: not knowable
	} {
		if got := cutShort(c.size, bs, c.total, c.used); got != c.want {
			t.Errorf("cutShort(%d, total %d, used %d) = %v, want %v", c.size, c.total, c.used, got, c.want)
		}
	}
}

// A write that began before the file was replaced does not commit into the
// orphaned file: the check before it began passed, so the one before COMMIT
// must refuse it. It used to commit and answer nil, and a run's `running`
// event riding along with such a write (a lazy flush of block events) was
// reported durable; the run then ran its blocks and only its publish failed
// (the flaky server TestRemovedWarehouseFailsLoud/replaced).
func TestWriteBegunBeforeTheReplaceIsRefusedAtCommit(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	publish(t, wh, "p", "2024-01-01", ids(t, 1))
	path := wh.Path()
	err := wh.write(context.Background(), func(tx *writeTx) error {
		if err := os.Rename(path, path+".old"); err != nil {
			return err
		}
		return os.WriteFile(path, nil, 0o644)
	})
	if !errors.Is(err, ErrFileChanged) {
		t.Fatalf("write across the replace: %v, want ErrFileChanged", err)
	}
}
