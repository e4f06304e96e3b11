package partitions

import (
	"fmt"
	"strings"
	"time"
)

// Spec says how a pipeline is partitioned: calendar periods of one Interval in
// one IANA zone. It is a small value; copy it freely.
//
// Build Specs from configuration with NewSpec, which validates every field and
// fills the defaults. A Spec literal is taken at face value: in particular its
// WeekStart zero value is time.Sunday, as in the time package, while NewSpec
// defaults to Monday (ISO 8601). Methods that return an error validate the
// Spec; At, Next, Prev, Latest, Covering and Containing cannot report errors
// and panic on an invalid Spec, which is a programming error (NewSpec never
// returns one).
type Spec struct {
	Interval Interval
	// Zone is the IANA zone whose calendar and wall clock define partition
	// boundaries. Nil means UTC.
	Zone *time.Location
	// WeekStart is the first day of a week for the Week interval (see the
	// package documentation for how weeks are numbered). The zero value is
	// Sunday; NewSpec defaults to Monday.
	WeekStart time.Weekday
	// Start bounds partitions from below: the first partition is the one
	// containing Start. The zero time means unbounded. It is ignored by At,
	// Next and Prev (pure calendar math) and enforced by Parse, Range, Count,
	// Iter, Latest, Covering and Containing.
	Start time.Time
	// Dims are the value dimensions (dimension.go), in declared order; nil
	// for a calendar-only spec, whose keys are exactly today's.
	Dims []Dim
	// TimePos is where the time part sits among a key's parts: 0 when the
	// time dimension is declared first. Ignored without Dims.
	TimePos int
}

// NewSpec builds a Spec from configuration strings as they appear in a
// pipeline file or on the command line:
//
//	NewSpec("day", "America/New_York", "monday", "2020-01-01")
//
// interval is required (see ParseInterval). zone is an IANA name; empty means
// UTC. weekStart is a weekday name or its three-letter abbreviation, in any
// case; empty means Monday. start is empty (unbounded), a key of this
// interval ("2020-W01" for weeks), or a date YYYY-MM-DD meaning the partition
// that contains the start of that day in zone. A spec with interval none
// takes no start. Errors name the bad value and say what was expected; the
// caller adds the file, line and field.
func NewSpec(interval, zone, weekStart, start string) (Spec, error) {
	iv, err := ParseInterval(interval)
	if err != nil {
		return Spec{}, err
	}
	loc, err := LoadZone(zone)
	if err != nil {
		return Spec{}, err
	}
	ws := time.Monday
	if strings.TrimSpace(weekStart) != "" {
		if ws, err = ParseWeekday(weekStart); err != nil {
			return Spec{}, err
		}
	}
	s := Spec{Interval: iv, Zone: loc, WeekStart: ws}
	if start = strings.TrimSpace(start); start != "" {
		if iv == None {
			return Spec{}, errorf(ErrInvalidSpec, "start %q cannot be used with interval none: an unpartitioned spec has one partition covering all time", start)
		}
		if s.Start, err = s.parseStart(start); err != nil {
			return Spec{}, err
		}
	}
	return s, nil
}

// parseStart reads NewSpec's start: a key of s's interval or a date.
func (s Spec) parseStart(v string) (time.Time, error) {
	p, err := s.parse(v)
	if err == nil {
		return p.Start, nil
	}
	if looksLike(v, s.Interval) || s.Interval == Day {
		return time.Time{}, errorf(ErrInvalidSpec, "start: %v", err)
	}
	if !looksLike(v, Day) {
		info := intervalInfos[s.Interval]
		return time.Time{}, errorf(ErrInvalidSpec, "start %q is neither %s key (%s, e.g. %s) nor a date (YYYY-MM-DD, e.g. 2024-03-10)",
			v, article(s.Interval), info.layout, info.example)
	}
	d, derr := parseDate(v, Day)
	if derr != nil {
		return time.Time{}, errorf(ErrInvalidSpec, "start: %v", derr)
	}
	return s.at(time.Unix(firstReach(newZoneCache(s.loc()), d.wall()), 0)).Start, nil
}

// LoadZone resolves an IANA zone name for a Spec or a --tz flag. Empty means
// UTC. "Local" is refused: partitions must not change with the machine that
// computes them.
func LoadZone(name string) (*time.Location, error) {
	n := strings.TrimSpace(name)
	switch n {
	case "", "UTC":
		return time.UTC, nil
	case "Local":
		return nil, errorf(ErrInvalidSpec, "zone %q depends on the machine running Strata: name an IANA zone such as America/New_York, or UTC", name)
	}
	loc, err := loadLocation(n)
	if err != nil {
		return nil, errorf(ErrInvalidSpec, "zone %q is not a known IANA time zone: want a name such as America/New_York, Europe/Berlin or UTC (names are case-sensitive; a binary on a machine without tzdata needs the time/tzdata package)", name)
	}
	return loc, nil
}

var weekdays = map[string]time.Weekday{
	"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday,
	"wednesday": time.Wednesday, "thursday": time.Thursday, "friday": time.Friday,
	"saturday": time.Saturday,
	"sun":      time.Sunday, "mon": time.Monday, "tue": time.Tuesday, "wed": time.Wednesday,
	"thu": time.Thursday, "fri": time.Friday, "sat": time.Saturday,
}

// ParseWeekday reads a week start: a weekday name or its three-letter
// abbreviation, in any case.
func ParseWeekday(s string) (time.Weekday, error) {
	if d, ok := weekdays[strings.ToLower(strings.TrimSpace(s))]; ok {
		return d, nil
	}
	return 0, errorf(ErrInvalidSpec, "week start %q is not a weekday: want one of monday, tuesday, wednesday, thursday, friday, saturday, sunday (or mon, tue, ...)", s)
}

// Validate reports whether s can be used: a known interval, a real weekday,
// and no start on an unpartitioned spec.
func (s Spec) Validate() error {
	if !s.Interval.Valid() {
		return errorf(ErrInvalidSpec, "interval %q is not valid: want one of %s", string(s.Interval), intervalList())
	}
	if s.WeekStart < time.Sunday || s.WeekStart > time.Saturday {
		return errorf(ErrInvalidSpec, "week start %d is not a weekday: want time.Sunday (0) to time.Saturday (6)", int(s.WeekStart))
	}
	if s.Interval == None && !s.Start.IsZero() {
		return errorf(ErrInvalidSpec, "start %s cannot be used with interval none: an unpartitioned spec has one partition covering all time", s.Start.Format(time.RFC3339))
	}
	if len(s.Dims) > 0 {
		return s.validateDims()
	}
	return nil
}

// mustValid panics on an invalid Spec in the methods that cannot return an
// error. It names the way out, since the cause is always code, not input.
func (s Spec) mustValid(method string) {
	if err := s.Validate(); err != nil {
		panic(fmt.Sprintf("partitions: Spec.%s on an invalid spec (build specs with NewSpec or check Validate): %v", method, err))
	}
}

// String describes s for logs: "day partitions in America/New_York from 2020-01-01".
func (s Spec) String() string {
	if len(s.Dims) > 0 {
		out := "partitions by " + s.KeyLayout()
		if s.hasTime() {
			out += " (" + s.TimeOnly().String() + ")"
		}
		return out
	}
	if s.Interval == None {
		return "unpartitioned (none)"
	}
	out := string(s.Interval) + " partitions in " + s.loc().String()
	if s.Interval == Week {
		out += ", weeks starting " + s.WeekStart.String()
	}
	if s.Validate() == nil {
		if p, ok := s.first(); ok {
			out += ", from " + p.Key
		}
	}
	return out
}

// loc returns the spec's zone, UTC when unset.
func (s Spec) loc() *time.Location {
	if s.Zone == nil {
		return time.UTC
	}
	return s.Zone
}

// first returns the first partition when s has a lower bound.
func (s Spec) first() (Partition, bool) {
	if s.Start.IsZero() || s.Interval == None {
		return Partition{}, false
	}
	return s.at(s.Start), true
}

// beforeFirst reports whether p starts before s's first partition, and
// returns the first partition for the error message.
func (s Spec) beforeFirst(p Partition) (Partition, bool) {
	f, ok := s.first()
	return f, ok && p.Start.Before(f.Start)
}
