package triggers

import (
	"testing"
	"time"

	"github.com/stratahq/strata/projects/partitions"
)

func TestDueCatchUp(t *testing.T) {
	t.Parallel()
	s, err := ParseSchedule("30 2 * * *", "America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	ny := mustZone(t, "America/New_York")
	at := func(y int, m time.Month, d, h, mi int) time.Time { return time.Date(y, m, d, h, mi, 0, 0, ny) }
	cases := []struct {
		name         string
		anchor, now  time.Time
		max          int
		run          []time.Time
		skipped      int
		first, lastS time.Time
	}{
		{"nothing due yet", at(2024, 3, 1, 2, 30), at(2024, 3, 2, 2, 29), 7, nil, 0, time.Time{}, time.Time{}},
		{"one tick", at(2024, 3, 1, 2, 30), at(2024, 3, 2, 2, 30), 7, []time.Time{at(2024, 3, 2, 2, 30)}, 0, time.Time{}, time.Time{}},
		{"three missed, max 7: all, oldest first", at(2024, 3, 1, 2, 30), at(2024, 3, 4, 9, 0), 7,
			[]time.Time{at(2024, 3, 2, 2, 30), at(2024, 3, 3, 2, 30), at(2024, 3, 4, 2, 30)}, 0, time.Time{}, time.Time{}},
		{"ten missed, max 2: the latest two, eight skipped", at(2024, 3, 1, 2, 30), at(2024, 3, 11, 12, 0), 2,
			[]time.Time{at(2024, 3, 10, 3, 0), at(2024, 3, 11, 2, 30)}, 8, at(2024, 3, 2, 2, 30), at(2024, 3, 9, 2, 30)},
		{"default max is 1", at(2024, 3, 1, 2, 30), at(2024, 3, 5, 12, 0), 0,
			[]time.Time{at(2024, 3, 5, 2, 30)}, 3, at(2024, 3, 2, 2, 30), at(2024, 3, 4, 2, 30)},
	}
	for _, c := range cases {
		p := Due(s, c.anchor, c.now, c.max)
		if !sameTimes(p.Run, c.run) || p.Skipped != c.skipped || !p.SkippedFirst.Equal(c.first) || !p.SkippedLast.Equal(c.lastS) {
			t.Errorf("%s: got run %s skipped %d (%s..%s), want run %s skipped %d", c.name, fmtTimes(p.Run, ny), p.Skipped,
				p.SkippedFirst.In(ny), p.SkippedLast.In(ny), fmtTimes(c.run, ny), c.skipped)
		}
	}
	// A year of a per-minute schedule: one plan, counted, not listed.
	m, _ := ParseSchedule("* * * * *", "UTC")
	p := Due(m, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), 3)
	if len(p.Run) != 3 || p.Skipped != 366*1440-3 {
		t.Errorf("a leap year of minutes: run %d skipped %d, want 3 and %d", len(p.Run), p.Skipped, 366*1440-3)
	}
}

func TestRunWindow(t *testing.T) {
	t.Parallel()
	day, _ := partitions.NewSpec("day", "America/New_York", "", "2024-01-01")
	week, _ := partitions.NewSpec("week", "UTC", "monday", "")
	none, _ := partitions.NewSpec("none", "", "", "")
	ny := mustZone(t, "America/New_York")
	tick := time.Date(2024, 3, 10, 3, 0, 0, 0, ny)
	cases := []struct {
		run      string
		spec     partitions.Spec
		tick     time.Time
		from, to string
		err      bool
	}{
		{"latest-complete", day, tick, "2024-03-09", "2024-03-09", false},
		{"latest-complete-2", day, tick, "2024-03-07", "2024-03-07", false},
		{"last 3", day, tick, "2024-03-07", "2024-03-09", false},
		{"current", day, tick, "2024-03-10", "2024-03-10", false},
		{"last 5", day, time.Date(2024, 1, 3, 1, 0, 0, 0, ny), "2024-01-01", "2024-01-02", false}, // cut at the first partition
		{"latest-complete", day, time.Date(2024, 1, 1, 5, 0, 0, 0, ny), "", "", true},             // the first day has not ended
		{"latest-complete", week, time.Date(2024, 3, 11, 0, 0, 0, 0, time.UTC), "2024-W10", "2024-W10", false},
		{"all", none, tick, "all", "all", false},
	}
	for _, c := range cases {
		r, err := ParseRun(c.run)
		if err != nil {
			t.Fatal(err)
		}
		from, to, err := r.Window(c.spec, c.tick)
		if (err != nil) != c.err || from != c.from || to != c.to {
			t.Errorf("%s at %s: %s..%s %v; want %s..%s err=%v", c.run, c.tick, from, to, err, c.from, c.to, c.err)
		}
	}
}

func TestParseRunAndFits(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"lastest", "last 0", "last x", "latest-complete+1"} {
		if _, err := ParseRun(bad); err == nil {
			t.Errorf("ParseRun(%q) accepted", bad)
		}
	}
	fits := []struct {
		run      string
		event    bool
		interval partitions.Interval
		ok       bool
	}{
		{"affected", true, partitions.Day, true},
		{"latest-complete", true, partitions.Day, false},
		{"affected", false, partitions.Day, false},
		{"last 3", false, partitions.None, false},
		{"all", false, partitions.Day, false},
		{"all", false, partitions.None, true},
		{"last 3", false, partitions.Week, true},
	}
	for _, f := range fits {
		r, _ := ParseRun(f.run)
		if err := r.Fits(f.event, f.interval); (err == nil) != f.ok {
			t.Errorf("%s event=%v %s: %v, want ok=%v", f.run, f.event, f.interval, err, f.ok)
		}
	}
}
