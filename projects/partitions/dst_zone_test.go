package partitions

import (
	"testing"
	"time"
)

// TestDSTPartitions pins partitions around clock changes: days of 23 and 25
// hours, skipped and repeated hours, zones 30 minutes off the hour, a
// half-hour DST shift, a midnight skipped by DST, and a day skipped by a
// zone moving across the date line.
func TestDSTPartitions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		zone, interval, key, start, end string
	}{
		// America/New_York: spring forward 2024-03-10 02:00, fall back 2024-11-03 02:00.
		{"America/New_York", "day", "2024-03-10", "2024-03-10T00:00:00-05:00", "2024-03-11T00:00:00-04:00"},
		{"America/New_York", "day", "2024-11-03", "2024-11-03T00:00:00-04:00", "2024-11-04T00:00:00-05:00"},
		{"America/New_York", "day", "2024-07-04", "2024-07-04T00:00:00-04:00", "2024-07-05T00:00:00-04:00"},
		{"America/New_York", "hour", "2024-03-10T01", "2024-03-10T01:00:00-05:00", "2024-03-10T03:00:00-04:00"},
		{"America/New_York", "hour", "2024-03-10T03", "2024-03-10T03:00:00-04:00", "2024-03-10T04:00:00-04:00"},
		{"America/New_York", "hour", "2024-11-03T00", "2024-11-03T00:00:00-04:00", "2024-11-03T01:00:00-04:00"},
		{"America/New_York", "hour", "2024-11-03T01-04:00", "2024-11-03T01:00:00-04:00", "2024-11-03T01:00:00-05:00"},
		{"America/New_York", "hour", "2024-11-03T01-05:00", "2024-11-03T01:00:00-05:00", "2024-11-03T02:00:00-05:00"},
		{"America/New_York", "hour", "2024-11-03T02", "2024-11-03T02:00:00-05:00", "2024-11-03T03:00:00-05:00"},
		{"America/New_York", "week", "2024-W10", "2024-03-04T00:00:00-05:00", "2024-03-11T00:00:00-04:00"},
		{"America/New_York", "month", "2024-03", "2024-03-01T00:00:00-05:00", "2024-04-01T00:00:00-04:00"},
		{"America/New_York", "quarter", "2024-Q4", "2024-10-01T00:00:00-04:00", "2025-01-01T00:00:00-05:00"},
		// Europe/Berlin: 2024-03-31 02:00 -> 03:00, 2024-10-27 03:00 -> 02:00.
		{"Europe/Berlin", "day", "2024-03-31", "2024-03-31T00:00:00+01:00", "2024-04-01T00:00:00+02:00"},
		{"Europe/Berlin", "day", "2024-10-27", "2024-10-27T00:00:00+02:00", "2024-10-28T00:00:00+01:00"},
		{"Europe/Berlin", "hour", "2024-03-31T01", "2024-03-31T01:00:00+01:00", "2024-03-31T03:00:00+02:00"},
		{"Europe/Berlin", "hour", "2024-10-27T02+02:00", "2024-10-27T02:00:00+02:00", "2024-10-27T02:00:00+01:00"},
		{"Europe/Berlin", "hour", "2024-10-27T02+01:00", "2024-10-27T02:00:00+01:00", "2024-10-27T03:00:00+01:00"},
		{"Europe/Berlin", "year", "2024", "2024-01-01T00:00:00+01:00", "2025-01-01T00:00:00+01:00"},
		// Australia/Adelaide, UTC+9:30 / +10:30: 2024-04-07 03:00 -> 02:00, 2024-10-06 02:00 -> 03:00.
		{"Australia/Adelaide", "day", "2024-04-07", "2024-04-07T00:00:00+10:30", "2024-04-08T00:00:00+09:30"},
		{"Australia/Adelaide", "day", "2024-10-06", "2024-10-06T00:00:00+09:30", "2024-10-07T00:00:00+10:30"},
		{"Australia/Adelaide", "hour", "2024-06-01T12", "2024-06-01T02:30:00Z", "2024-06-01T03:30:00Z"},
		{"Australia/Adelaide", "hour", "2024-04-07T02+10:30", "2024-04-07T02:00:00+10:30", "2024-04-07T02:00:00+09:30"},
		{"Australia/Adelaide", "hour", "2024-04-07T02+09:30", "2024-04-07T02:00:00+09:30", "2024-04-07T03:00:00+09:30"},
		{"Australia/Adelaide", "hour", "2024-10-06T01", "2024-10-06T01:00:00+09:30", "2024-10-06T03:00:00+10:30"},
		// Asia/Kolkata, UTC+5:30 all year: days start at 18:30 UTC.
		{"Asia/Kolkata", "day", "2024-03-10", "2024-03-09T18:30:00Z", "2024-03-10T18:30:00Z"},
		{"Asia/Kolkata", "hour", "2024-03-10T02", "2024-03-09T20:30:00Z", "2024-03-09T21:30:00Z"},
		// Australia/Lord_Howe shifts by 30 minutes: 2024-04-07 02:00 -> 01:30, 2024-10-06 02:00 -> 02:30.
		{"Australia/Lord_Howe", "day", "2024-04-07", "2024-04-07T00:00:00+11:00", "2024-04-08T00:00:00+10:30"},
		{"Australia/Lord_Howe", "hour", "2024-04-07T01+11:00", "2024-04-07T01:00:00+11:00", "2024-04-07T01:30:00+10:30"},
		{"Australia/Lord_Howe", "hour", "2024-04-07T01+10:30", "2024-04-07T01:30:00+10:30", "2024-04-07T02:00:00+10:30"},
		{"Australia/Lord_Howe", "hour", "2024-10-06T01", "2024-10-06T01:00:00+10:30", "2024-10-06T02:30:00+11:00"},
		{"Australia/Lord_Howe", "hour", "2024-10-06T02", "2024-10-06T02:30:00+11:00", "2024-10-06T03:00:00+11:00"},
		// America/Sao_Paulo sprang forward at midnight (2018-11-04 00:00 -> 01:00)
		// and fell back from midnight to 23:00 (2019-02-17 00:00 -> 2019-02-16 23:00).
		{"America/Sao_Paulo", "day", "2018-11-03", "2018-11-03T00:00:00-03:00", "2018-11-04T01:00:00-02:00"},
		{"America/Sao_Paulo", "day", "2018-11-04", "2018-11-04T01:00:00-02:00", "2018-11-05T00:00:00-02:00"},
		{"America/Sao_Paulo", "month", "2018-11", "2018-11-01T00:00:00-03:00", "2018-12-01T00:00:00-02:00"},
		{"America/Sao_Paulo", "day", "2019-02-16", "2019-02-16T00:00:00-02:00", "2019-02-17T00:00:00-03:00"},
		{"America/Sao_Paulo", "hour", "2019-02-16T23-02:00", "2019-02-16T23:00:00-02:00", "2019-02-16T23:00:00-03:00"},
		{"America/Sao_Paulo", "hour", "2019-02-16T23-03:00", "2019-02-16T23:00:00-03:00", "2019-02-17T00:00:00-03:00"},
		// Pacific/Apia skipped 2011-12-30 when it moved from UTC-10 to UTC+14.
		{"Pacific/Apia", "day", "2011-12-29", "2011-12-29T00:00:00-10:00", "2011-12-31T00:00:00+14:00"},
		{"Pacific/Apia", "day", "2011-12-31", "2011-12-31T00:00:00+14:00", "2012-01-01T00:00:00+14:00"},
		{"Pacific/Apia", "week", "2011-W52", "2011-12-26T00:00:00-10:00", "2012-01-02T00:00:00+14:00"},
	} {
		s := spec(t, tc.interval, tc.zone)
		p := mustParse(t, s, tc.key)
		wantPartition(t, p, tc.key, tc.start, tc.end)
		if p.Start.Location() != s.Zone || p.End.Location() != s.Zone {
			t.Errorf("%s %s: bounds in %s and %s, want %s", tc.zone, tc.key, p.Start.Location(), p.End.Location(), s.Zone)
		}
		// Every instant of the partition maps back to it: first, last, middle.
		for _, at := range []time.Time{p.Start, p.End.Add(-time.Nanosecond), p.Start.Add(p.Duration() / 2)} {
			if got := s.At(at); !samePartition(got, p) {
				t.Errorf("%s: At(%s) = %s, want %s", tc.zone, at.UTC().Format(time.RFC3339Nano), got.Key, p.Key)
			}
		}
		if got := s.Prev(s.Next(p)); !samePartition(got, p) {
			t.Errorf("%s: Prev(Next(%s)) = %s", tc.zone, p.Key, got.Key)
		}
	}
}

// TestDSTDayLengths checks hour counts per day: 23, 24 or 25 hour partitions,
// and for a half-hour shift, 24 or 25 partitions of unequal lengths.
func TestDSTDayLengths(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		zone, day string
		length    time.Duration
		hours     int
	}{
		{"America/New_York", "2024-03-10", 23 * time.Hour, 23},
		{"America/New_York", "2024-03-11", 24 * time.Hour, 24},
		{"America/New_York", "2024-11-03", 25 * time.Hour, 25},
		{"Europe/Berlin", "2024-03-31", 23 * time.Hour, 23},
		{"Europe/Berlin", "2024-10-27", 25 * time.Hour, 25},
		{"Australia/Adelaide", "2024-10-06", 23 * time.Hour, 23},
		{"Australia/Adelaide", "2024-04-07", 25 * time.Hour, 25},
		{"Asia/Kolkata", "2024-03-10", 24 * time.Hour, 24},
		{"Australia/Lord_Howe", "2024-10-06", 23*time.Hour + 30*time.Minute, 24},
		{"Australia/Lord_Howe", "2024-04-07", 24*time.Hour + 30*time.Minute, 25},
		{"America/Sao_Paulo", "2018-11-04", 23 * time.Hour, 23},
		{"America/Sao_Paulo", "2019-02-16", 25 * time.Hour, 25},
	} {
		day := mustParse(t, spec(t, "day", tc.zone), tc.day)
		if day.Duration() != tc.length {
			t.Errorf("%s %s lasts %v, want %v", tc.zone, tc.day, day.Duration(), tc.length)
		}
		hs := spec(t, "hour", tc.zone)
		first, last := hs.At(day.Start), hs.At(day.End.Add(-time.Nanosecond))
		n, err := hs.Count(first.Key, last.Key)
		if err != nil || n != tc.hours {
			t.Errorf("%s %s: Count(%s, %s) = %d, %v; want %d hours", tc.zone, tc.day, first.Key, last.Key, n, err, tc.hours)
		}
	}
}

// TestAtRepeatedHour checks that instants in a repeated hour, given in any
// location, land in the right occurrence.
func TestAtRepeatedHour(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		zone, at, hour, day string
	}{
		{"America/New_York", "2024-11-03T05:00:00Z", "2024-11-03T01-04:00", "2024-11-03"},
		{"America/New_York", "2024-11-03T05:59:59.999Z", "2024-11-03T01-04:00", "2024-11-03"},
		{"America/New_York", "2024-11-03T06:00:00Z", "2024-11-03T01-05:00", "2024-11-03"},
		{"America/New_York", "2024-11-03T07:00:00Z", "2024-11-03T02", "2024-11-03"},
		{"America/New_York", "2024-03-10T06:59:59Z", "2024-03-10T01", "2024-03-10"},
		{"America/New_York", "2024-03-10T07:00:00Z", "2024-03-10T03", "2024-03-10"},
		{"America/New_York", "2024-03-10T04:59:59Z", "2024-03-09T23", "2024-03-09"},
		{"Europe/Berlin", "2024-10-27T00:30:00Z", "2024-10-27T02+02:00", "2024-10-27"},
		{"Europe/Berlin", "2024-10-27T01:30:00Z", "2024-10-27T02+01:00", "2024-10-27"},
		{"Europe/Berlin", "2024-10-27T03:30:00+01:00", "2024-10-27T03", "2024-10-27"},
		{"America/Sao_Paulo", "2019-02-17T02:30:00Z", "2019-02-16T23-03:00", "2019-02-16"},
	} {
		at := instant(t, tc.at)
		if got := spec(t, "hour", tc.zone).At(at).Key; got != tc.hour {
			t.Errorf("%s: hour At(%s) = %s, want %s", tc.zone, tc.at, got, tc.hour)
		}
		if got := spec(t, "day", tc.zone).At(at).Key; got != tc.day {
			t.Errorf("%s: day At(%s) = %s, want %s", tc.zone, tc.at, got, tc.day)
		}
	}
}

// TestZonesWithoutTransitions covers UTC, a nil zone and a fixed offset.
func TestZonesWithoutTransitions(t *testing.T) {
	t.Parallel()
	fixed := Spec{Interval: Hour, Zone: time.FixedZone("X", -(3*3600 + 1800))}
	wantPartition(t, fixed.At(instant(t, "2024-01-01T00:10:00Z")), "2023-12-31T20", "2023-12-31T20:00:00-03:30", "2023-12-31T21:00:00-03:30")
	wantPartition(t, mustParse(t, fixed, "2023-12-31T20"), "2023-12-31T20", "2023-12-31T20:00:00-03:30", "2023-12-31T21:00:00-03:30")
	nilZone := Spec{Interval: Day, WeekStart: time.Monday}
	wantPartition(t, nilZone.At(instant(t, "2024-01-01T23:59:59Z")), "2024-01-01", "2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z")
}
