package partitions

import (
	"fmt"
	"time"
)

// Hour partitions. An hour partition is a run of instants during which the
// zone's clock shows one wall hour with one UTC offset. Normally that is one
// real hour starting at a whole local hour (at :30 UTC in Asia/Kolkata). When
// clocks spring forward the skipped wall hour has no partition; when they fall
// back the repeated wall hour has two, and both keys carry the offset
// (2024-11-03T01-04:00, then 2024-11-03T01-05:00 in America/New_York). A clock
// change of half an hour (Australia/Lord_Howe) leaves a 30-minute partition.
// Day boundaries are always hour boundaries, so a day is a whole number of
// hour partitions: 23 or 25 on DST days in New York.

// hourAt returns the hour partition containing t.
func (s Spec) hourAt(c *zoneCache, t time.Time) Partition {
	sec := t.Unix()
	off, zs, ze := c.lookup(sec)
	h := floorDiv(sec+int64(off), secondsPerHour) * secondsPerHour
	// Fast path: if t's zone period covers every instant that could show
	// wall hour h, that hour occurs exactly once, whole, at offset off.
	if zs <= h-maxOffset-secondsPerHour && ze >= h+maxOffset+secondsPerHour {
		start := h - int64(off)
		return s.hourPartition(h, occurrence{start: start, end: start + secondsPerHour, off: off}, false)
	}
	occ := hourOccurrences(c.loc, h)
	for _, o := range occ {
		if sec >= o.start && sec < o.end {
			return s.hourPartition(h, o, len(occ) > 1)
		}
	}
	// Only reachable for a zone with offsets beyond maxOffset; answer with
	// t's own zone period rather than fail.
	start := max(h-int64(off), zs)
	end := min(h-int64(off)+secondsPerHour, ze)
	return s.hourPartition(h, occurrence{start: start, end: end, off: off}, false)
}

// hourKey formats the key of wall hour h, with the offset when repeated.
func hourKey(h int64, off int, repeated bool) string {
	var buf [32]byte
	b := appendDate(buf[:0], dateOfWall(h))
	b = append(b, 'T')
	b = appendPadded(b, int(floorMod(h, secondsPerDay)/secondsPerHour), 2)
	if repeated {
		b = appendOffset(b, off)
	}
	return string(b)
}

func (s Spec) hourPartition(h int64, o occurrence, repeated bool) Partition {
	loc := s.loc()
	return Partition{Key: hourKey(h, o.off, repeated), Start: time.Unix(o.start, 0).In(loc), End: time.Unix(o.end, 0).In(loc)}
}

// resolveHour finds the partition a well-formed hour key names: wall hour h,
// with UTC offset off when hasOff.
func (s Spec) resolveHour(key string, h int64, off int, hasOff bool) (Partition, error) {
	loc := s.loc()
	occ := hourOccurrences(loc, h)
	plain := hourKey(h, 0, false)
	switch len(occ) {
	case 0:
		return Partition{}, errorf(ErrSkipped, "partition %q does not exist in %s: %s", key, loc, describeGap(loc, firstReach(newZoneCache(loc), h)))
	case 1:
		if hasOff {
			return Partition{}, errorf(ErrInvalidKey, "partition %q carries a UTC offset, but hour %s occurs only once in %s: want %q (offsets are written only for an hour repeated when clocks fall back)", key, plain, loc, plain)
		}
		return s.hourPartition(h, occ[0], false), nil
	}
	keys := make([]string, len(occ))
	for i, o := range occ {
		keys[i] = hourKey(h, o.off, true)
	}
	if !hasOff {
		return Partition{}, errorf(ErrAmbiguous, "partition %q is ambiguous in %s: clocks fall back and that hour occurs %s; want %s", key, loc, times(len(occ)), orderedKeys(keys))
	}
	for _, o := range occ {
		if o.off == off {
			return s.hourPartition(h, o, true), nil
		}
	}
	return Partition{}, errorf(ErrInvalidKey, "partition %q names a UTC offset that hour %s does not have in %s: want %s", key, plain, loc, orderedKeys(keys))
}

func times(n int) string {
	if n == 2 {
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

// orderedKeys lists the keys of a repeated hour, saying which comes first.
func orderedKeys(keys []string) string {
	if len(keys) == 2 {
		return fmt.Sprintf("%q (first) or %q (second)", keys[0], keys[1])
	}
	return quoteKeys(keys) + " (in time order)"
}

// countHours counts the hour partitions covering the instants [from, to),
// which are partition boundaries. Within a piece of constant offset a
// partition starts at every whole wall hour, and one more starts at the
// piece's first instant when that is not a whole wall hour (a clock change of
// half an hour, or local mean time).
func (s Spec) countHours(from, to int64) int64 {
	var n int64
	walkOffsets(s.loc(), from, to, func(p piece) bool {
		o := int64(p.off)
		n += ceilDiv(p.end+o, secondsPerHour) - ceilDiv(p.start+o, secondsPerHour)
		if floorMod(p.start+o, secondsPerHour) != 0 {
			n++
		}
		return true
	})
	return n
}
