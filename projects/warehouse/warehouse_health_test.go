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
// fails its first write with an error that says the file may be truncated
// and what to do, not DuckDB's bare "Could not read enough bytes".
func TestTruncatedFileSaysWhatToDo(t *testing.T) {
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
	wh, err = Open(context.Background(), path, Options{})
	if err == nil {
		defer wh.Close()
		_, err = wh.Publish(context.Background(), []Output{out("p", "2024-01-01", ids(t, 9))})
	}
	if err == nil || !strings.Contains(err.Error(), "truncated") || !strings.Contains(err.Error(), "restore") || !strings.Contains(err.Error(), path) {
		t.Fatalf("a truncated file: %v", err)
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
