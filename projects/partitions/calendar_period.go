package partitions

import "time"

// Calendar math for the date-based intervals (day, week, month, quarter,
// year). A period is named by its first day; its boundaries are the first
// instants at which the zone's clock reaches that day's midnight and the next
// period's (firstReach), so a DST day is 23 or 25 hours long and a day whose
// midnight was skipped starts at the transition.

// floorWeek returns the first day of the week (starting on ws) containing d.
func floorWeek(d date, ws time.Weekday) date {
	return d.addDays(-floorMod(int64(d.weekday())-int64(ws), 7))
}

// floorDate returns the first day of s's period containing d.
func (s Spec) floorDate(d date) date {
	switch s.Interval {
	case Week:
		return floorWeek(d, s.WeekStart)
	case Month:
		return date{y: d.y, m: d.m, d: 1}
	case Quarter:
		return date{y: d.y, m: (d.m-1)/3*3 + 1, d: 1}
	case Year:
		return date{y: d.y, m: time.January, d: 1}
	}
	return d
}

// nextStart returns the first day of the period after the one starting on d.
func (s Spec) nextStart(d date) date {
	switch s.Interval {
	case Week:
		return d.addDays(7)
	case Month:
		return d.addMonths(1)
	case Quarter:
		return d.addMonths(3)
	case Year:
		return date{y: d.y + 1, m: time.January, d: 1}
	}
	return d.addDays(1)
}

// prevStart returns the first day of the period before the one starting on d.
func (s Spec) prevStart(d date) date { return s.floorDate(d.addDays(-1)) }

// periodIndex numbers periods consecutively, so that Count is a subtraction.
func (s Spec) periodIndex(d date) int64 {
	switch s.Interval {
	case Week:
		return floorDiv(d.days(), 7) // week starts are 7 days apart, so this is exact
	case Month:
		return d.monthIndex()
	case Quarter:
		return floorDiv(d.monthIndex(), 3)
	case Year:
		return int64(d.y)
	}
	return d.days()
}

// Week numbering. Week 1 of a year is the first week, starting on the spec's
// weekday, with at least four days in that year; equivalently the week that
// contains January 4, and a week belongs to the year of its fourth day. With
// Monday this is exactly ISO 8601 (the fourth day is Thursday); with Sunday it
// is the US CDC "MMWR week". The key's year is this week-year, which differs
// from the calendar year for a few days around New Year.

func week1Start(y int, ws time.Weekday) date {
	return floorWeek(date{y: y, m: time.January, d: 4}, ws)
}

// weekNumber returns the week-year and week number of the week starting on
// start.
func weekNumber(start date, ws time.Weekday) (year, week int) {
	year = start.addDays(3).y
	week = int((start.days()-week1Start(year, ws).days())/7) + 1
	return year, week
}

// weeksInYear returns 52 or 53.
func weeksInYear(y int, ws time.Weekday) int {
	return int((week1Start(y+1, ws).days() - week1Start(y, ws).days()) / 7)
}

// dateKey formats the key of the period starting on d.
func (s Spec) dateKey(d date) string {
	var buf [16]byte
	b := buf[:0]
	switch s.Interval {
	case Day:
		b = appendDate(b, d)
	case Week:
		y, n := weekNumber(d, s.WeekStart)
		b = appendPadded(b, y, 4)
		b = append(b, '-', 'W')
		b = appendPadded(b, n, 2)
	case Month:
		b = appendPadded(b, d.y, 4)
		b = append(b, '-')
		b = appendPadded(b, int(d.m), 2)
	case Quarter:
		b = appendPadded(b, d.y, 4)
		b = append(b, '-', 'Q')
		b = appendPadded(b, (int(d.m)-1)/3+1, 1)
	case Year:
		b = appendPadded(b, d.y, 4)
	}
	return string(b)
}

// datePartition returns the period starting on d. Its Start equals its End
// when the zone skipped the whole period (Pacific/Apia skipped 2011-12-30).
func (s Spec) datePartition(c *zoneCache, d date) Partition {
	start := firstReach(c, d.wall())
	end := firstReach(c, s.nextStart(d).wall())
	return s.newDatePartition(d, start, end)
}

func (s Spec) newDatePartition(d date, start, end int64) Partition {
	loc := s.loc()
	return Partition{Key: s.dateKey(d), Start: time.Unix(start, 0).In(loc), End: time.Unix(end, 0).In(loc)}
}

// dateAt returns the period containing instant t. The local date of t is
// only a first guess: around a clock change an instant can show a date whose
// period has not started yet (or has already ended), so the guess is moved
// until start <= t < end. Boundaries only grow with the date, so this ends.
func (s Spec) dateAt(c *zoneCache, t time.Time) Partition {
	sec := t.Unix() // boundaries are whole seconds, so flooring t keeps comparisons exact
	off, _, _ := c.lookup(sec)
	d := s.floorDate(dateOfWall(sec + int64(off)))
	start := firstReach(c, d.wall())
	for {
		if sec < start {
			d = s.prevStart(d)
			start = firstReach(c, d.wall())
			continue
		}
		next := s.nextStart(d)
		end := firstReach(c, next.wall())
		if sec >= end {
			d, start = next, end
			continue
		}
		return s.newDatePartition(d, start, end)
	}
}

// startDate returns the first day of a date-based partition of s.
func (s Spec) startDate(p Partition) date {
	y, m, d := p.Start.In(s.loc()).Date()
	return s.floorDate(date{y: y, m: m, d: d})
}

// countDates counts the partitions from a to b inclusive: the difference of
// their period numbers, less any period a clock change removed entirely.
func (s Spec) countDates(a, b Partition) int64 {
	lo, hi := s.periodIndex(s.startDate(a)), s.periodIndex(s.startDate(b))
	return hi - lo + 1 - s.emptyPeriods(lo, hi, a.Start.Unix(), b.End.Unix())
}

// emptyPeriods counts the periods numbered lo..hi that a forward jump of the
// clock removed entirely. Only a jump of at least a day can do that, so it
// walks the zone's offsets over the instants [from, to) and looks closely
// only at such jumps, which tzdata has a handful of in all history.
func (s Spec) emptyPeriods(lo, hi, from, to int64) int64 {
	c := newZoneCache(s.loc())
	var n int64
	last := lo - 1 // periods are counted once even if two jumps were near
	prevOff, started := 0, false
	walkOffsets(c.loc, from, to, func(p piece) bool {
		if started && p.off-prevOff >= secondsPerDay {
			gapFrom, gapTo := p.start+int64(prevOff), p.start+int64(p.off)
			for d := s.floorDate(dateOfWall(gapFrom)); d.wall() <= gapTo; d = s.nextStart(d) {
				i := s.periodIndex(d)
				if i > last && i >= lo && i <= hi && firstReach(c, d.wall()) == firstReach(c, s.nextStart(d).wall()) {
					n++
					last = i
				}
			}
		}
		prevOff, started = p.off, true
		return true
	})
	return n
}
