package snapshot

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Collecting snapshots. Which snapshots are still needed is the caller's
// business (the engine asks its warehouse); this file only removes the
// others safely:
//
//   - a snapshot used or saved since cutoff is kept whatever keep says
//     (Touch marks a use), so one that a run just took is never taken away
//     under it;
//   - a folder is first renamed to a ".trash-" name, then removed: a crash
//     mid-way leaves a trash folder (removed by the next collection), never
//     half a snapshot under its hash, which Open would refuse as edited;
//   - leftovers of a crash (".tmp-" folders of an interrupted Save, old
//     ".trash-" folders) are removed once they are older than cutoff.

// Touch marks snapshot hash as used now, so that a collection keeps it for
// its grace period even if nothing recorded names it yet.
func Touch(dir, hash string, now time.Time) error {
	if err := os.Chtimes(Path(dir, hash), now, now); err != nil {
		return fmt.Errorf("touch snapshot %s: %w", hash, err)
	}
	return nil
}

// GC removes the snapshots of the project in dir that keep does not want
// and that were not used or saved since cutoff. It returns the hashes it
// removed, sorted.
func GC(dir string, keep func(hash string) bool, cutoff time.Time) ([]string, error) {
	root := filepath.Join(dir, filepath.FromSlash(Dir))
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("collect snapshots: %w", err)
	}
	var removed []string
	var errs []error
	for _, ent := range entries {
		name := ent.Name()
		if !ent.IsDir() {
			continue
		}
		info, err := ent.Info()
		if err != nil {
			continue // gone meanwhile
		}
		recent := info.ModTime().After(cutoff)
		switch {
		case strings.HasPrefix(name, ".tmp-"), strings.HasPrefix(name, ".trash-"):
			if !recent {
				if err := removeTree(filepath.Join(root, name)); err != nil {
					errs = append(errs, err)
				}
			}
			continue
		case !isHash(name), recent, keep(name):
			continue
		}
		trash := filepath.Join(root, ".trash-"+name+"-"+nonce())
		if err := os.Rename(filepath.Join(root, name), trash); err != nil {
			errs = append(errs, fmt.Errorf("collect snapshot %s: %w", name, err))
			continue
		}
		removed = append(removed, name)
		if err := removeTree(trash); err != nil {
			errs = append(errs, err)
		}
	}
	sort.Strings(removed)
	return removed, errors.Join(errs...)
}

// removeTree removes a snapshot folder; its files are read-only (0444),
// which only the folders' permissions matter for.
func removeTree(p string) error {
	if err := os.RemoveAll(p); err != nil {
		return fmt.Errorf("remove %s: %w", p, err)
	}
	return nil
}

// isHash reports whether name is a snapshot hash (16 hex digits).
func isHash(name string) bool {
	if len(name) != 16 {
		return false
	}
	_, err := hex.DecodeString(name)
	return err == nil && strings.ToLower(name) == name
}

func nonce() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
