package partitions

import (
	"strings"
	"time"
)

// Partition is one calendar period of a Spec: the instants [Start, End), with
// Start and End in the spec's zone. Keys are stable strings that name the
// same partition on every machine (see the package documentation for the
// formats). Order partitions by Start, not by Key: keys sort in time order
// except for the two keys of a repeated fall-back hour in zones east of UTC.
//
// The single partition of an unpartitioned spec (interval none) has Key
// AllKey and zero Start and End, and contains every instant.
//
// A partition of a spec with value dimensions is one cell: Key is the
// composite key, Start and End its time window (zero without a time
// dimension), and Values its value per dimension, in the spec's Dims order.
// Values may be shared between partitions: do not modify them.
type Partition struct {
	Key        string
	Start, End time.Time
	Values     []string
}

// Contains reports whether t falls inside p.
func (p Partition) Contains(t time.Time) bool {
	if p.isAll() {
		return true
	}
	return !t.Before(p.Start) && t.Before(p.End)
}

// Duration is End minus Start: 23 hours for a spring-forward day in New
// York, zero for the unbounded "all" partition.
func (p Partition) Duration() time.Duration { return p.End.Sub(p.Start) }

// IsZero reports whether p is the zero Partition, which Latest, Next and Prev
// return when there is no such partition.
func (p Partition) IsZero() bool { return p.Key == "" && p.Start.IsZero() && p.End.IsZero() }

func (p Partition) isAll() bool { return p.Key == AllKey && p.Start.IsZero() && p.End.IsZero() }

// Value returns p's value of the dimension named name in s.
func (s Spec) Value(p Partition, name string) (string, bool) {
	for i, d := range s.Dims {
		if d.Name == name && i < len(p.Values) {
			return p.Values[i], true
		}
	}
	return "", false
}

// TimeKey returns the time part of p's key: p.Key for a calendar-only spec,
// "" for a spec without a time dimension.
func (s Spec) TimeKey(p Partition) string {
	if len(s.Dims) == 0 {
		return p.Key
	}
	if !s.hasTime() {
		return ""
	}
	return strings.Split(p.Key, KeySep)[s.TimePos]
}

// Parse returns the partition a key names. It is strict: a key in the wrong
// format, for a date that does not exist, for a wall hour or day the zone's
// clocks skipped, for a repeated hour without its offset, or before the
// spec's first partition is an error saying what was expected.
func (s Spec) Parse(key string) (Partition, error) {
	if err := s.Validate(); err != nil {
		return Partition{}, err
	}
	if len(s.Dims) > 0 {
		return s.parseCell(key)
	}
	p, err := s.parse(key)
	if err != nil {
		return Partition{}, err
	}
	if f, before := s.beforeFirst(p); before {
		return Partition{}, errorf(ErrBeforeStart, "partition %q is before the first partition %q", key, f.Key)
	}
	return p, nil
}

// At returns the partition containing instant t, whatever t's location. It
// is pure calendar math and ignores s.Start. With value dimensions it
// answers for the calendar: a time key and no Values.
func (s Spec) At(t time.Time) Partition {
	s.mustValid("At")
	return s.at(t)
}

func (s Spec) at(t time.Time) Partition { return s.atWith(newZoneCache(s.loc()), t) }

// atWith is at with a zone cache that a loop over neighbouring partitions
// keeps from one call to the next.
func (s Spec) atWith(c *zoneCache, t time.Time) Partition {
	switch s.Interval {
	case None:
		return allPartition()
	case Hour:
		return s.hourAt(c, t)
	}
	return s.dateAt(c, t)
}

// Next returns the partition that starts where p ends. p must be a partition
// of s. An unpartitioned spec has no next partition: Next returns the zero
// Partition.
func (s Spec) Next(p Partition) Partition {
	s.mustValid("Next")
	if s.Interval == None {
		return Partition{}
	}
	return s.withValues(s.at(p.End), p.Values)
}

// Prev returns the partition that ends where p starts, even if it is before
// s.Start. An unpartitioned spec has no previous partition: Prev returns the
// zero Partition.
func (s Spec) Prev(p Partition) Partition {
	s.mustValid("Prev")
	if s.Interval == None {
		return Partition{}
	}
	return s.withValues(s.at(p.Start.Add(-time.Nanosecond)), p.Values)
}

// Latest returns the latest complete partition at now: the one before
// At(now), which has ended by now. It returns the zero Partition when that
// partition is before s.Start (the first partition has not ended yet). For an
// unpartitioned spec it returns the "all" partition, which is always current.
func (s Spec) Latest(now time.Time) Partition {
	s.mustValid("Latest")
	if s.Interval == None {
		return allPartition()
	}
	p := s.at(s.at(now).Start.Add(-time.Nanosecond))
	if _, before := s.beforeFirst(p); before {
		return Partition{}
	}
	return p
}

// Mapping between intervals. A weekly block downstream of a daily one reads
// the week's days (Covering); rewriting a day makes its week and month stale
// (Containing). Both are the same question, which partitions of another spec
// overlap this one in time, asked in opposite directions, so both are
// answered by overlap of the instants [Start, End) rather than by key
// arithmetic. That keeps them right across zones and DST: a New York day
// covers 23, 24 or 25 New York hours, and a UTC hour can touch two days of
// Australia/Adelaide, whose midnights fall at :30 UTC.
//
// Partitions of the other spec before its Start do not exist and are left
// out. An unpartitioned spec's "all" partition overlaps everything.

// Covering returns the partitions of fine that overlap p, a partition of s, in
// time order: a week's 7 days, a DST day's 23 or 25 hours, a month's days.
// When p is the "all" partition of an unpartitioned spec, and fine is
// partitioned, the answer is unbounded and Covering returns nil: use
// fine.Iter with explicit bounds instead.
func (s Spec) Covering(p Partition, fine Spec) []Partition {
	s.mustValid("Covering")
	fine.mustValid("Covering")
	return s.overlapping(p, fine)
}

// Containing returns the partitions of coarse that overlap p, a partition of
// s, in time order: a day's week, or its month; a UTC hour's one or two days
// in another zone. Every partition overlaps the "all" partition of an
// unpartitioned coarse spec.
func (s Spec) Containing(p Partition, coarse Spec) []Partition {
	s.mustValid("Containing")
	coarse.mustValid("Containing")
	return s.overlapping(p, coarse)
}

func (s Spec) overlapping(p Partition, other Spec) []Partition {
	if len(s.Dims) > 0 || len(other.Dims) > 0 {
		return s.overlappingCells(p, other)
	}
	return s.overlappingTime(p, other)
}

func (s Spec) overlappingTime(p Partition, other Spec) []Partition {
	if other.Interval == None {
		return []Partition{allPartition()}
	}
	if s.Interval == None || p.isAll() || !p.Start.Before(p.End) {
		return nil
	}
	c := newZoneCache(other.loc())
	q := other.atWith(c, p.Start)
	if f, before := other.beforeFirst(q); before {
		if !f.Start.Before(p.End) {
			return nil
		}
		q = f
	}
	var out []Partition
	for q.Start.Before(p.End) {
		out = append(out, q)
		q = other.atWith(c, q.End)
	}
	return out
}
