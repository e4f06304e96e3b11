package partitions

import (
	"math"
	"time"
)

// This file is the only place that asks a *time.Location about its offsets.
// Everything else works on wall seconds (see civil_date.go) and calls
// firstReach or hourOccurrences to turn a wall-clock boundary into instants.
//
// Why not time.Date? time.Date(y, m, d, 0, 0, 0, 0, loc) answers in one of
// the two offsets around a transition "without guarantee which", so on a day
// whose midnight is skipped (America/Sao_Paulo before 2019 sprang forward at
// 00:00) it can return 23:00 of the previous day, and on a repeated wall time
// it may return either occurrence. Partition boundaries must be exact and must
// tile time, so the rule here is: a boundary at wall time W is the first
// instant at which the zone's clock shows W or later (firstReach). Away from
// transitions that is simply W minus the offset, which is the fast path.

// maxOffset bounds |UTC offset| of any zone, in seconds. tzdata's extremes are
// about 16 hours (local mean time in Asia/Manila before 1845), so 26 hours
// leaves a wide margin. The search windows below are derived from it: an
// instant whose wall clock shows W lies within maxOffset of W.
const maxOffset = 26 * secondsPerHour

// piece is a stretch of instants [start, end), in Unix seconds, during which
// a zone keeps one UTC offset (off, in seconds east of UTC).
type piece struct {
	start, end int64
	off        int
}

// walkOffsets calls fn for each maximal constant-offset piece of loc clipped
// to the instants [from, to), in time order, until fn returns false.
// Neighbouring zone periods that differ only in name or DST flag (EWT to EPT in
// 1945) are merged: for partitions only the offset matters.
func walkOffsets(loc *time.Location, from, to int64, fn func(piece) bool) {
	t := time.Unix(from, 0).In(loc)
	_, off := t.Zone()
	cur := piece{start: from, off: off}
	for {
		_, end := t.ZoneBounds()
		if end.IsZero() || end.Unix() >= to || end.Unix() <= t.Unix() {
			cur.end = to
			fn(cur)
			return
		}
		t = end
		if _, off := t.Zone(); off != cur.off {
			cur.end = t.Unix()
			if !fn(cur) {
				return
			}
			cur = piece{start: cur.end, off: off}
		}
	}
}

// offsetAt returns loc's UTC offset at Unix second sec.
func offsetAt(loc *time.Location, sec int64) int {
	_, off := time.Unix(sec, 0).In(loc).Zone()
	return off
}

// zoneCache remembers the last constant-offset period of a zone it was asked
// about. Walking consecutive partitions asks about neighbouring instants
// over and over, and for instants after a zone's last listed transition
// (every instant since 2007 in America/New_York, with today's slim tzdata)
// each time.Location lookup re-parses the zone's rule string; the cache
// answers most of those questions with two comparisons. A zoneCache belongs to
// one call or one iterator and is never shared between goroutines.
type zoneCache struct {
	loc        *time.Location
	start, end int64 // the cached period [start, end); math.MinInt64/MaxInt64 when unbounded
	off        int
	ok         bool
}

func newZoneCache(loc *time.Location) *zoneCache { return &zoneCache{loc: loc} }

// lookup returns the offset at Unix second sec and the bounds of the zone
// period containing it.
func (c *zoneCache) lookup(sec int64) (off int, start, end int64) {
	if c.ok && sec >= c.start && sec < c.end {
		return c.off, c.start, c.end
	}
	t := time.Unix(sec, 0).In(c.loc)
	_, off = t.Zone()
	zs, ze := t.ZoneBounds()
	c.start, c.end, c.off, c.ok = math.MinInt64, math.MaxInt64, off, true
	if !zs.IsZero() {
		c.start = zs.Unix()
	}
	if !ze.IsZero() {
		c.end = ze.Unix()
	}
	return c.off, c.start, c.end
}

// firstReach returns the first instant (Unix seconds) at which the zone's
// clock shows wall time w or later. Inside a skipped stretch that is the
// transition instant; for a repeated stretch it is the first occurrence.
func firstReach(c *zoneCache, w int64) int64 {
	guess, _, _ := c.lookup(w - int64(c.off))
	at := w - int64(guess)
	if off, start, _ := c.lookup(at); off == guess {
		// at shows w. It is the first instant to do so if no earlier
		// instant could show w or later, which holds when at's zone
		// period began more than two maximal offsets before it.
		if start <= at-2*maxOffset {
			return at
		}
	}
	result := at
	walkOffsets(c.loc, w-maxOffset-secondsPerHour, w+maxOffset+secondsPerHour, func(p piece) bool {
		if p.start+int64(p.off) >= w { // the clock jumped over w at p.start
			result = p.start
			return false
		}
		if at := w - int64(p.off); at < p.end { // the clock shows w inside p
			result = at
			return false
		}
		return true
	})
	return result
}

// occurrence is one run of instants [start, end) during which loc's clock
// shows a given wall hour with UTC offset off. An hour occurs once normally,
// not at all when clocks jump over it, and twice when clocks fall back over it.
type occurrence struct {
	start, end int64
	off        int
}

// hourOccurrences lists, in time order, the occurrences of the wall hour
// starting at wall second h (a multiple of 3600).
func hourOccurrences(loc *time.Location, h int64) []occurrence {
	var occ []occurrence
	walkOffsets(loc, h-maxOffset-secondsPerHour, h+maxOffset+secondsPerHour, func(p piece) bool {
		lo := max(p.start, h-int64(p.off))
		hi := min(p.end, h-int64(p.off)+secondsPerHour)
		if lo < hi {
			occ = append(occ, occurrence{start: lo, end: hi, off: p.off})
		}
		return true
	})
	return occ
}

// describeGap explains the clock change at instant x, for errors about
// partitions that a forward jump removed: "clocks jump from 2024-03-10 02:00
// to 2024-03-10 03:00".
func describeGap(loc *time.Location, x int64) string {
	before := offsetAt(loc, x-1)
	after := offsetAt(loc, x)
	from := formatWall(x + int64(before))
	to := formatWall(x + int64(after))
	if from[:10] == to[:10] {
		to = to[11:]
	}
	return "clocks jump from " + from + " to " + to
}
