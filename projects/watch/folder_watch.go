package watch

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// DefaultQuiet is how long a burst of changes must be quiet before it is
// reported.
const DefaultQuiet = 150 * time.Millisecond

// Watcher watches one project folder.
type Watcher struct {
	root  string
	quiet time.Duration
	fw    *fsnotify.Watcher
	on    func(paths []string)

	done chan struct{}
	wg   sync.WaitGroup
}

// Start watches root and calls on (from one goroutine, never concurrently)
// with the sorted, project-relative, slash-separated paths of each burst of
// changes. quiet <= 0 means DefaultQuiet.
func Start(root string, quiet time.Duration, on func(paths []string)) (*Watcher, error) {
	if quiet <= 0 {
		quiet = DefaultQuiet
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &Watcher{root: filepath.Clean(root), quiet: quiet, fw: fw, on: on, done: make(chan struct{})}
	if err := w.addTree(w.root); err != nil {
		fw.Close()
		return nil, err
	}
	w.wg.Add(1)
	go w.loop()
	return w, nil
}

// Close stops watching; no callback runs after it returns.
func (w *Watcher) Close() error {
	close(w.done)
	err := w.fw.Close()
	w.wg.Wait()
	return err
}

// ignored: the engine's own state and hidden files and folders (editor swap
// files, .git, the atomic-write temporaries of the server).
func ignored(rel string) bool {
	for _, part := range strings.Split(rel, "/") {
		if strings.HasPrefix(part, ".") && part != "." {
			return true
		}
		if strings.HasSuffix(part, "~") {
			return true
		}
	}
	return false
}

func (w *Watcher) rel(p string) (string, bool) {
	r, err := filepath.Rel(w.root, p)
	if err != nil || strings.HasPrefix(r, "..") {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// addTree watches dir and every folder under it that is not ignored.
func (w *Watcher) addTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // gone while walking
			}
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if r, ok := w.rel(p); ok && r != "." && ignored(r) {
			return filepath.SkipDir
		}
		return w.fw.Add(p)
	})
}

func (w *Watcher) loop() {
	defer w.wg.Done()
	pending := map[string]bool{}
	var timer *time.Timer
	var fire <-chan time.Time
	for {
		select {
		case <-w.done:
			if timer != nil {
				timer.Stop()
			}
			return
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			r, ok := w.rel(ev.Name)
			if !ok || r == "." || ignored(r) {
				continue
			}
			if ev.Has(fsnotify.Create) {
				// A new folder (a new Go block) is watched too.
				if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
					_ = w.addTree(ev.Name)
				}
			}
			if ev.Has(fsnotify.Chmod) && !ev.Has(fsnotify.Write) {
				continue // touch, permission changes: the content is the same
			}
			pending[r] = true
			if timer == nil {
				timer = time.NewTimer(w.quiet)
			} else {
				timer.Reset(w.quiet)
			}
			fire = timer.C
		case <-fire:
			fire = nil
			paths := make([]string, 0, len(pending))
			for p := range pending {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			pending = map[string]bool{}
			select {
			case <-w.done:
				return
			default:
			}
			w.on(paths)
		case <-w.fw.Errors:
			// An overflowed queue loses events: report the root, so the
			// project is reloaded from scratch.
			pending["."] = true
			if timer == nil {
				timer = time.NewTimer(w.quiet)
			} else {
				timer.Reset(w.quiet)
			}
			fire = timer.C
		}
	}
}
