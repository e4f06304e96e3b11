package audit

import (
	"fmt"
	"os"
	"sync"
	"testing"
	"time"
)

// Two logs on one project (a server and a CLI) append at once: every line
// is whole; List keeps the newest Limit matches, newest first; a torn last
// line (a crash mid-write) is skipped, not fatal.
func TestAppendsFromTwoWritersAndFilters(t *testing.T) {
	dir := t.TempDir()
	a, b := Open(dir), Open(dir)
	t0 := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for w, l := range []*Log{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				e := Entry{Actor: fmt.Sprintf("w%d", w), Action: ActionFileSave, Target: fmt.Sprint(i), At: t0.Add(time.Duration(i) * time.Second)}
				if _, err := l.Record(e); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	f, _ := os.OpenFile(File(dir), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"actor":"torn","act`)
	f.Close()

	// The next entry after a torn line is kept whole.
	if _, err := b.Record(Entry{Actor: "after", Action: ActionRunLaunch, At: t0}); err != nil {
		t.Fatal(err)
	}
	if got, _ := a.List(Filter{Actor: "after"}); len(got) != 1 {
		t.Fatalf("the entry after a torn line: %+v", got)
	}
	if all, err := a.List(Filter{Limit: 1000}); err != nil || len(all) != 201 {
		t.Fatalf("listed %d entries (%v), want 201", len(all), err)
	}
	w0, _ := a.List(Filter{Actor: "w0", Limit: 3})
	if len(w0) != 3 || w0[0].Target != "99" || w0[2].Target != "97" {
		t.Fatalf("newest 3 of w0: %+v", w0)
	}
	late, _ := a.List(Filter{Since: t0.Add(98 * time.Second)})
	if len(late) != 4 {
		t.Fatalf("since 98s: %d entries, want 4", len(late))
	}
	if none, _ := a.List(Filter{Action: "backfill"}); len(none) != 0 {
		t.Fatalf("action backfill: %+v", none)
	}
	if fam, _ := a.List(Filter{Action: "file", Limit: 1}); len(fam) != 1 || fam[0].Action != ActionFileSave {
		t.Fatalf("action family file: %+v", fam)
	}
	if _, err := a.Record(Entry{Action: ActionFileSave}); err == nil {
		t.Fatal("an entry without an actor was recorded")
	}
}
