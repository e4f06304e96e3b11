package partitions

import (
	"fmt"
	"time"
)

// Key parsing is strict: one spelling per partition, so that a key read from
// a file, a URL or the warehouse always names the same partition and keys
// can be compared as strings. Errors say which format this spec wants and,
// when the key fits another interval's format, which one it looks like.

// parse resolves key to a partition of s without checking s.Start.
func (s Spec) parse(key string) (Partition, error) {
	switch s.Interval {
	case None:
		if key == AllKey {
			return allPartition(), nil
		}
		return Partition{}, formatError(key, None)
	case Hour:
		h, off, hasOff, err := parseHourKey(key)
		if err != nil {
			return Partition{}, err
		}
		return s.resolveHour(key, h, off, hasOff)
	}
	d, err := s.parseDateKey(key)
	if err != nil {
		return Partition{}, err
	}
	p := s.datePartition(newZoneCache(s.loc()), d)
	if !p.Start.Before(p.End) {
		loc := s.loc()
		return Partition{}, errorf(ErrSkipped, "partition %q does not exist in %s: %s", key, loc, describeGap(loc, p.Start.Unix()))
	}
	return p, nil
}

// parseDateKey reads the key of a date-based interval and returns the
// period's first day.
func (s Spec) parseDateKey(key string) (date, error) {
	i := s.Interval
	if !looksLike(key, i) {
		return date{}, formatError(key, i)
	}
	y := atoi(key[0:4])
	switch i {
	case Day:
		return parseDate(key, Day)
	case Week:
		n, weeks := atoi(key[6:8]), weeksInYear(y, s.WeekStart)
		if n < 1 || n > weeks {
			return date{}, valueError(key, i, fmt.Sprintf("week %02d is not between 01 and %02d: week-year %04d has %d weeks starting %s", n, weeks, y, weeks, s.WeekStart))
		}
		return week1Start(y, s.WeekStart).addDays(int64(n-1) * 7), nil
	case Month:
		m := atoi(key[5:7])
		if m < 1 || m > 12 {
			return date{}, valueError(key, i, fmt.Sprintf("month %02d is not between 01 and 12", m))
		}
		return date{y: y, m: time.Month(m), d: 1}, nil
	case Quarter:
		q := atoi(key[6:7])
		if q < 1 || q > 4 {
			return date{}, valueError(key, i, fmt.Sprintf("quarter %d is not between 1 and 4", q))
		}
		return date{y: y, m: time.Month(3*(q-1) + 1), d: 1}, nil
	}
	return date{y: y, m: time.January, d: 1}, nil // Year
}

// parseDate reads YYYY-MM-DD, for day keys, the date part of hour keys and
// NewSpec's start. i names the interval in error messages.
func parseDate(key string, i Interval) (date, error) {
	if len(key) < 10 || !matchShape(key[:10], "9999-99-99") {
		return date{}, formatError(key, i)
	}
	y, m, d := atoi(key[0:4]), atoi(key[5:7]), atoi(key[8:10])
	if m < 1 || m > 12 {
		return date{}, valueError(key, i, fmt.Sprintf("month %02d is not between 01 and 12", m))
	}
	if n := daysIn(y, time.Month(m)); d < 1 || d > n {
		why := fmt.Sprintf("day %02d is not between 01 and %02d", d, n)
		if d > n {
			why = fmt.Sprintf("%04d-%02d has %d days", y, m, n)
		}
		if m == 2 && d == 29 {
			why += fmt.Sprintf(" (%04d is not a leap year)", y)
		}
		return date{}, valueError(key, i, why)
	}
	return date{y: y, m: time.Month(m), d: d}, nil
}

// parseHourKey reads YYYY-MM-DDTHH with an optional ±hh:mm[:ss] offset and
// returns the wall second of the hour's start and the offset in seconds.
func parseHourKey(key string) (h int64, off int, hasOff bool, err error) {
	if !looksLike(key, Hour) {
		return 0, 0, false, formatError(key, Hour)
	}
	d, err := parseDate(key, Hour)
	if err != nil {
		return 0, 0, false, err
	}
	hour := atoi(key[11:13])
	if hour > 23 {
		return 0, 0, false, valueError(key, Hour, fmt.Sprintf("hour %02d is not between 00 and 23", hour))
	}
	h = d.wall() + int64(hour)*secondsPerHour
	if len(key) == 13 {
		return h, 0, false, nil
	}
	mm := atoi(key[17:19])
	ss := 0
	if len(key) > 19 {
		ss = atoi(key[20:22])
	}
	if mm > 59 || ss > 59 {
		return 0, 0, false, valueError(key, Hour, fmt.Sprintf("UTC offset %s is not a valid ±hh:mm offset", key[13:]))
	}
	off = atoi(key[14:16])*3600 + mm*60 + ss
	if key[13] == '-' {
		off = -off
	}
	return h, off, true, nil
}

// allPartition is the single partition of an unpartitioned spec.
func allPartition() Partition { return Partition{Key: AllKey} }
