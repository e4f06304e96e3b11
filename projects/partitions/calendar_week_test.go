package partitions

import (
	"fmt"
	"testing"
	"time"
)

// TestWeekKeys pins week keys across year boundaries, for ISO (Monday) weeks
// and for Sunday weeks numbered by the same four-day rule (CDC MMWR weeks).
func TestWeekKeys(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		weekStart, day, key, first string // first: the week's first day
	}{
		{"monday", "2024-03-10", "2024-W10", "2024-03-04"},
		{"monday", "2024-02-29", "2024-W09", "2024-02-26"},
		{"monday", "2019-12-30", "2020-W01", "2019-12-30"},
		{"monday", "2020-12-31", "2020-W53", "2020-12-28"},
		{"monday", "2021-01-01", "2020-W53", "2020-12-28"},
		{"monday", "2021-01-03", "2020-W53", "2020-12-28"},
		{"monday", "2021-01-04", "2021-W01", "2021-01-04"},
		{"monday", "2024-12-30", "2025-W01", "2024-12-30"},
		{"monday", "2026-12-31", "2026-W53", "2026-12-28"},
		{"monday", "2027-01-03", "2026-W53", "2026-12-28"},
		{"monday", "2005-01-01", "2004-W53", "2004-12-27"},
		{"monday", "2007-12-31", "2008-W01", "2007-12-31"},
		{"monday", "2008-12-28", "2008-W52", "2008-12-22"},
		{"monday", "2010-01-03", "2009-W53", "2009-12-28"},
		{"sunday", "2024-03-10", "2024-W11", "2024-03-10"},
		{"sunday", "2024-03-09", "2024-W10", "2024-03-03"},
		{"sunday", "2023-12-31", "2024-W01", "2023-12-31"},
		{"sunday", "2021-01-01", "2020-W53", "2020-12-27"},
		{"sunday", "2021-01-03", "2021-W01", "2021-01-03"},
		{"sunday", "2022-01-01", "2021-W52", "2021-12-26"},
		{"sunday", "2015-01-01", "2014-W53", "2014-12-28"},
		{"saturday", "2024-01-01", "2024-W01", "2023-12-30"},
		{"saturday", "2022-01-01", "2022-W01", "2022-01-01"},
		{"thursday", "2024-01-01", "2023-W53", "2023-12-28"},
	} {
		s := spec(t, "week", "UTC", tc.weekStart)
		p := s.At(instant(t, tc.day+"T12:00:00Z"))
		start := instant(t, tc.first+"T00:00:00Z")
		wantPartition(t, p, tc.key, start.Format(time.RFC3339), start.AddDate(0, 0, 7).Format(time.RFC3339))
		if got := mustParse(t, s, tc.key); !samePartition(got, p) {
			t.Errorf("%s weeks: Parse(%s) = %s from %s", tc.weekStart, tc.key, got.Key, got.Start)
		}
	}
}

// TestISOWeeksMatchTimePackage compares Monday week keys with time.ISOWeek for
// every day of 1990-2040, and checks the generalized rule for every week start:
// week 1 contains January 4, and a week's year is the year of its fourth day.
func TestISOWeeksMatchTimePackage(t *testing.T) {
	t.Parallel()
	iso := spec(t, "week", "UTC", "monday")
	for d := instant(t, "1990-01-01T00:00:00Z"); d.Year() < 2041; d = d.AddDate(0, 0, 1) {
		y, w := d.ISOWeek()
		if got, want := iso.At(d).Key, fmt.Sprintf("%04d-W%02d", y, w); got != want {
			t.Fatalf("At(%s) = %s, want %s", d.Format(time.DateOnly), got, want)
		}
	}
	for ws := time.Sunday; ws <= time.Saturday; ws++ {
		s := Spec{Interval: Week, WeekStart: ws}
		for y := 1999; y <= 2031; y++ {
			jan4 := time.Date(y, 1, 4, 0, 0, 0, 0, time.UTC)
			if got := s.At(jan4).Key; got != fmt.Sprintf("%04d-W01", y) {
				t.Errorf("%s weeks: January 4 %d is in %s, want week 1", ws, y, got)
			}
			p := mustParse(t, s, fmt.Sprintf("%04d-W01", y))
			if p.Start.Weekday() != ws || p.Start.AddDate(0, 0, 3).Year() != y {
				t.Errorf("%s weeks: %d-W01 starts %s", ws, y, p.Start)
			}
		}
	}
}

func TestWeeksInYear(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		weekStart string
		year      int
		weeks     int
	}{
		{"monday", 2015, 53}, {"monday", 2020, 53}, {"monday", 2026, 53}, {"monday", 2032, 53},
		{"monday", 2021, 52}, {"monday", 2024, 52}, {"monday", 2025, 52},
		{"sunday", 2014, 53}, {"sunday", 2020, 53}, {"sunday", 2021, 52}, {"sunday", 2025, 53},
	} {
		s := spec(t, "week", "America/New_York", tc.weekStart)
		n, err := s.Count(fmt.Sprintf("%d-W01", tc.year), fmt.Sprintf("%d-W%02d", tc.year, tc.weeks))
		if err != nil || n != tc.weeks {
			t.Errorf("%s weeks in %d: %d, %v; want %d", tc.weekStart, tc.year, n, err, tc.weeks)
		}
		if _, err := s.Parse(fmt.Sprintf("%d-W%02d", tc.year, tc.weeks+1)); err == nil {
			t.Errorf("%s weeks: %d-W%02d parsed", tc.weekStart, tc.year, tc.weeks+1)
		}
	}
}

// TestCalendarBoundaries checks At on both sides of month, quarter and year
// boundaries, in UTC and in zones where they fall at other UTC times.
func TestCalendarBoundaries(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		interval, zone, at, key string
	}{
		{"month", "UTC", "2024-01-31T23:59:59.999999999Z", "2024-01"},
		{"month", "UTC", "2024-02-01T00:00:00Z", "2024-02"},
		{"month", "UTC", "2024-02-29T12:00:00Z", "2024-02"},
		{"month", "UTC", "2023-02-28T23:59:59Z", "2023-02"},
		{"month", "UTC", "2023-03-01T00:00:00Z", "2023-03"},
		{"month", "America/New_York", "2024-03-01T04:59:59Z", "2024-02"},
		{"month", "America/New_York", "2024-03-01T05:00:00Z", "2024-03"},
		{"quarter", "UTC", "2024-03-31T23:59:59.999Z", "2024-Q1"},
		{"quarter", "UTC", "2024-04-01T00:00:00Z", "2024-Q2"},
		{"quarter", "UTC", "2024-06-30T23:59:59Z", "2024-Q2"},
		{"quarter", "UTC", "2024-07-01T00:00:00Z", "2024-Q3"},
		{"quarter", "UTC", "2024-12-31T23:59:59Z", "2024-Q4"},
		{"quarter", "UTC", "2025-01-01T00:00:00Z", "2025-Q1"},
		{"quarter", "Asia/Kolkata", "2024-03-31T18:29:59Z", "2024-Q1"},
		{"quarter", "Asia/Kolkata", "2024-03-31T18:30:00Z", "2024-Q2"},
		{"year", "UTC", "2024-12-31T23:59:59.999999999Z", "2024"},
		{"year", "Europe/Berlin", "2024-12-31T23:00:00Z", "2025"},
		{"day", "UTC", "1900-02-28T23:59:59Z", "1900-02-28"},
		{"day", "UTC", "1900-03-01T00:00:00Z", "1900-03-01"},
		{"day", "UTC", "2000-02-29T00:00:00Z", "2000-02-29"},
		{"day", "UTC", "1969-12-31T23:59:59Z", "1969-12-31"},
	} {
		if got := spec(t, tc.interval, tc.zone).At(instant(t, tc.at)).Key; got != tc.key {
			t.Errorf("%s in %s: At(%s) = %s, want %s", tc.interval, tc.zone, tc.at, got, tc.key)
		}
	}
}

func TestNextPrev(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		interval, key, next, prev string
	}{
		{"day", "2024-02-28", "2024-02-29", "2024-02-27"},
		{"day", "2024-03-01", "2024-03-02", "2024-02-29"},
		{"day", "2023-03-01", "2023-03-02", "2023-02-28"},
		{"day", "2024-12-31", "2025-01-01", "2024-12-30"},
		{"week", "2020-W53", "2021-W01", "2020-W52"},
		{"week", "2021-W01", "2021-W02", "2020-W53"},
		{"month", "2024-12", "2025-01", "2024-11"},
		{"quarter", "2024-Q1", "2024-Q2", "2023-Q4"},
		{"year", "2000", "2001", "1999"},
		{"hour", "2024-12-31T23", "2025-01-01T00", "2024-12-31T22"},
	} {
		s := spec(t, tc.interval, "America/New_York")
		p := mustParse(t, s, tc.key)
		if got := s.Next(p).Key; got != tc.next {
			t.Errorf("Next(%s) = %s, want %s", tc.key, got, tc.next)
		}
		if got := s.Prev(p).Key; got != tc.prev {
			t.Errorf("Prev(%s) = %s, want %s", tc.key, got, tc.prev)
		}
	}
	none := spec(t, "none", "")
	all := none.At(time.Now())
	if !none.Next(all).IsZero() || !none.Prev(all).IsZero() {
		t.Error("an unpartitioned spec has neighbours")
	}
}
