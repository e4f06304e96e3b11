package warehouse

import (
	"fmt"
	"strings"
	"time"
)

// offsetSpan is a stretch of time over which a zone keeps one UTC offset.
type offsetSpan struct {
	from   time.Time // first instant with this offset (zero: since ever)
	offset int       // seconds east of UTC
}

// offsetSpans lists the offsets zone takes between lo and hi, with the
// instants they change: a handful a year (summer time). The chart
// aggregation turns instants into wall times with them in plain arithmetic,
// because DuckDB's zone-aware functions (ICU) cost microseconds a row: 18 s
// for a five-year product of 1.8 million rows.
func offsetSpans(lo, hi time.Time, zone *time.Location) []offsetSpan {
	_, off := lo.In(zone).Zone()
	spans := []offsetSpan{{offset: off}}
	// Zones change offset at most a few times a year and never twice within
	// a few days: step by 6 hours, then find the change to the second.
	const step = 6 * time.Hour
	for t := lo; t.Before(hi); {
		next := t.Add(step)
		if _, o := next.In(zone).Zone(); o != off {
			a, b := t, next // offset off at a, o at b
			for b.Sub(a) > time.Second {
				mid := a.Add(b.Sub(a) / 2)
				if _, m := mid.In(zone).Zone(); m == off {
					a = mid
				} else {
					b = mid
				}
			}
			b = b.Truncate(time.Second)
			if _, ob := b.In(zone).Zone(); ob != o {
				b = b.Add(time.Second)
			}
			spans = append(spans, offsetSpan{from: b, offset: o})
			off = o
		}
		t = next
	}
	return spans
}

// wallSQL is the SQL of a TIMESTAMPTZ expression x as a naive TIMESTAMP of
// its wall time in the zone, for instants in the spans' range.
func wallSQL(x string, spans []offsetSpan) string {
	if len(spans) == 1 {
		return fmt.Sprintf("make_timestamp(epoch_us(%s) + %d)", x, int64(spans[0].offset)*1_000_000)
	}
	var b strings.Builder
	b.WriteString("make_timestamp(epoch_us(" + x + ") + CASE")
	for i := len(spans) - 1; i >= 1; i-- {
		fmt.Fprintf(&b, " WHEN epoch_us(%s) >= %d THEN %d", x, spans[i].from.UnixMicro(), int64(spans[i].offset)*1_000_000)
	}
	fmt.Fprintf(&b, " ELSE %d END)", int64(spans[0].offset)*1_000_000)
	return b.String()
}
