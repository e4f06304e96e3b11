package warehouse

import (
	"context"
	"errors"
	"os"
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
