package triggers

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
)

// Schedule is a parsed five-field cron expression in a zone.
type Schedule struct {
	Expr string
	Zone *time.Location

	minute, hour, dom, month, dow uint64
	domStar, dowStar              bool
}

// starBit is robfig/cron's marker of a field written as "*" or "?".
const starBit = 1 << 63

var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// ParseSchedule reads a cron expression ("30 2 * * *", "@daily") for the
// IANA zone named zone (empty means UTC). Errors say what was expected; the
// caller adds the file, line and field.
func ParseSchedule(expr, zone string) (*Schedule, error) {
	loc, err := loadZone(zone)
	if err != nil {
		return nil, err
	}
	e := strings.TrimSpace(expr)
	if strings.HasPrefix(e, "TZ=") || strings.HasPrefix(e, "CRON_TZ=") {
		return nil, fmt.Errorf("cron %q: write the zone in timezone:, not in the expression", expr)
	}
	if strings.HasPrefix(e, "@every") {
		return nil, fmt.Errorf("cron %q: @every is not a wall-clock schedule: want five fields (minute hour day-of-month month day-of-week) such as \"30 2 * * *\"", expr)
	}
	s, err := cronParser.Parse(e)
	if err != nil {
		return nil, fmt.Errorf("bad cron %q: %v: want five fields (minute hour day-of-month month day-of-week) such as \"30 2 * * *\", or @hourly, @daily, @weekly, @monthly, @yearly", expr, err)
	}
	spec, ok := s.(*cron.SpecSchedule)
	if !ok {
		return nil, fmt.Errorf("bad cron %q: want five fields such as \"30 2 * * *\"", expr)
	}
	out := &Schedule{Expr: e, Zone: loc,
		minute: spec.Minute &^ starBit, hour: spec.Hour &^ starBit, dom: spec.Dom &^ starBit,
		month: spec.Month &^ starBit, dow: spec.Dow &^ starBit,
		domStar: spec.Dom&starBit != 0, dowStar: spec.Dow&starBit != 0}
	if !out.canMatch() {
		return nil, fmt.Errorf("cron %q never fires: no month has that day", expr)
	}
	return out, nil
}

func loadZone(zone string) (*time.Location, error) {
	switch zone {
	case "", "UTC":
		return time.UTC, nil
	case "Local":
		return nil, fmt.Errorf("time zone \"Local\" depends on the machine: want an IANA name such as \"UTC\" or \"America/New_York\"")
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return nil, fmt.Errorf("unknown time zone %q: want an IANA name such as \"UTC\" or \"America/New_York\"", zone)
	}
	return loc, nil
}

// canMatch rules out expressions such as "0 0 31 2 *" that no date satisfies.
func (s *Schedule) canMatch() bool {
	if !s.domStar && s.dowStar {
		maxDay := map[time.Month]int{1: 31, 2: 29, 3: 31, 4: 30, 5: 31, 6: 30, 7: 31, 8: 31, 9: 30, 10: 31, 11: 30, 12: 31}
		for m := time.January; m <= time.December; m++ {
			if s.month&(1<<uint(m)) == 0 {
				continue
			}
			for d := 1; d <= maxDay[m]; d++ {
				if s.dom&(1<<uint(d)) != 0 {
					return true
				}
			}
		}
		return false
	}
	return true
}

// everyHour reports whether the schedule fires in every hour of the day; such
// schedules keep their rhythm in elapsed time through DST (see the package doc).
func (s *Schedule) everyHour() bool { return bits.OnesCount64(s.hour&(1<<24-1)) == 24 }

// dayMatches is cron's day rule: when both day-of-month and day-of-week are
// restricted, either may match; otherwise both must.
func (s *Schedule) dayMatches(y int, m time.Month, d int, wd time.Weekday) bool {
	if s.month&(1<<uint(m)) == 0 {
		return false
	}
	domOK := s.dom&(1<<uint(d)) != 0
	dowOK := s.dow&(1<<uint(wd)) != 0
	if s.domStar || s.dowStar {
		return domOK && dowOK
	}
	return domOK || dowOK
}

// Next returns the first tick strictly after t, or the zero time if none
// exists within nine years.
func (s *Schedule) Next(t time.Time) time.Time {
	var next time.Time
	s.each(t, t.AddDate(9, 0, 0), func(tk time.Time) bool { next = tk; return false })
	return next
}

// Ticks returns every tick in (from, to], oldest first, at most limit (limit
// <= 0: no limit).
func (s *Schedule) Ticks(from, to time.Time, limit int) []time.Time {
	var out []time.Time
	s.each(from, to, func(tk time.Time) bool {
		out = append(out, tk)
		return limit <= 0 || len(out) < limit
	})
	return out
}

// each calls fn with every tick in (from, to], oldest first, until fn
// returns false. It walks civil days, so a year of a per-minute schedule is
// 365 steps of 1,440 wall times, not a search per tick.
func (s *Schedule) each(from, to time.Time, fn func(time.Time) bool) {
	lt := from.In(s.Zone)
	// A civil date (noon avoids any edge). A skipped wall time of the day
	// before can fire at a transition on this day (a zone whose clocks jump
	// across midnight), so start one day back.
	day := time.Date(lt.Year(), lt.Month(), lt.Day(), 12, 0, 0, 0, time.UTC).AddDate(0, 0, -1)
	last := to.In(s.Zone)
	end := time.Date(last.Year(), last.Month(), last.Day(), 12, 0, 0, 0, time.UTC).AddDate(0, 0, 1)
	prev := from // a skipped day's wall times land on the next day's first tick: one tick
	for ; !day.After(end); day = day.AddDate(0, 0, 1) {
		for _, c := range s.dayTicks(day) {
			if !c.After(prev) {
				continue
			}
			if c.After(to) || !fn(c) {
				return
			}
			prev = c
		}
	}
}

// dayTicks lists the instants the schedule fires for wall times on civil date
// day (its year, month and day), sorted and without repeats.
func (s *Schedule) dayTicks(day time.Time) []time.Time {
	y, m, d := day.Date()
	if !s.dayMatches(y, m, d, day.Weekday()) {
		return nil
	}
	every := s.everyHour()
	var out []time.Time
	for h := 0; h < 24; h++ {
		if s.hour&(1<<uint(h)) == 0 {
			continue
		}
		for mi := 0; mi < 60; mi++ {
			if s.minute&(1<<uint(mi)) == 0 {
				continue
			}
			valid, after := resolveWall(s.Zone, y, m, d, h, mi)
			switch {
			case every:
				out = append(out, valid...)
			case len(valid) > 0:
				out = append(out, valid[0])
			case !after.IsZero():
				out = append(out, after)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Before(out[j]) })
	uniq := out[:0]
	for i, t := range out {
		if i == 0 || !t.Equal(out[i-1]) {
			uniq = append(uniq, t)
		}
	}
	return uniq
}

// resolveWall finds the instants whose wall clock in loc reads y-m-d h:mi:
// none (skipped by a clock change), one, or two (a repeated hour), oldest
// first. For a skipped wall time, after is the first valid instant after it:
// the moment the clock jumped.
func resolveWall(loc *time.Location, y int, m time.Month, d, h, mi int) (valid []time.Time, after time.Time) {
	wall := time.Date(y, m, d, h, mi, 0, 0, time.UTC).Unix()
	guess := time.Date(y, m, d, h, mi, 0, 0, loc)
	seen := map[int]bool{}
	// Offsets of the zone around that wall time; 26 hours covers a zone that
	// skipped a whole day (Pacific/Apia, 2011-12-30).
	for _, probe := range []time.Time{guess.Add(-26 * time.Hour), guess.Add(-6 * time.Hour), guess, guess.Add(6 * time.Hour), guess.Add(26 * time.Hour)} {
		_, off := probe.Zone()
		if seen[off] {
			continue
		}
		seen[off] = true
		inst := time.Unix(wall-int64(off), 0).In(loc)
		if lw := wallOf(inst); lw == wall {
			valid = append(valid, inst)
		} else if lw > wall {
			// Read with an offset from before a forward jump, the wall
			// time lands after the jump; the jump is where its zone starts.
			start, _ := inst.ZoneBounds()
			if !start.IsZero() && wallOf(start) > wall && (after.IsZero() || start.Before(after)) {
				after = start
			}
		}
	}
	sort.Slice(valid, func(i, j int) bool { return valid[i].Before(valid[j]) })
	if len(valid) > 0 {
		after = time.Time{}
	}
	return valid, after
}

// wallOf is t's wall clock in its location, as seconds since the epoch read as UTC.
func wallOf(t time.Time) int64 {
	_, off := t.Zone()
	return t.Unix() + int64(off)
}
