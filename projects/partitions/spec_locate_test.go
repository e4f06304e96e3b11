package partitions

import (
	"slices"
	"testing"
)

// overlapCase reads as "key of the receiver spec maps to these keys of the
// other spec" (all of them when want is short, or first..last plus a count).
type overlapCase struct {
	name        string
	s           Spec
	key         string
	other       Spec
	count       int
	first, last string
	want        []string // when set, the exact keys
}

func (tc overlapCase) check(t *testing.T, got []Partition) {
	t.Helper()
	keys := keysOf(got)
	if tc.want != nil {
		if !slices.Equal(keys, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, keys, tc.want)
		}
		return
	}
	if len(keys) != tc.count || (len(keys) > 0 && (keys[0] != tc.first || keys[len(keys)-1] != tc.last)) {
		t.Errorf("%s: got %d partitions %v, want %d from %s to %s", tc.name, len(keys), keys, tc.count, tc.first, tc.last)
	}
}

func TestCovering(t *testing.T) {
	t.Parallel()
	var (
		utcDay  = spec(t, "day", "UTC")
		utcHour = spec(t, "hour", "UTC")
		nyDay   = spec(t, "day", "America/New_York")
		nyHour  = spec(t, "hour", "America/New_York")
	)
	for _, tc := range []overlapCase{
		{name: "ISO week to its days", s: spec(t, "week", "UTC"), key: "2024-W10", other: utcDay,
			want: []string{"2024-03-04", "2024-03-05", "2024-03-06", "2024-03-07", "2024-03-08", "2024-03-09", "2024-03-10"}},
		{name: "week across New Year", s: spec(t, "week", "America/New_York"), key: "2020-W53", other: nyDay,
			count: 7, first: "2020-12-28", last: "2021-01-03"},
		{name: "Sunday week to its days", s: spec(t, "week", "UTC", "sunday"), key: "2024-W11", other: utcDay,
			count: 7, first: "2024-03-10", last: "2024-03-16"},
		{name: "spring-forward day to 23 hours", s: nyDay, key: "2024-03-10", other: nyHour,
			count: 23, first: "2024-03-10T00", last: "2024-03-10T23"},
		{name: "fall-back day to 25 hours", s: nyDay, key: "2024-11-03", other: nyHour,
			count: 25, first: "2024-11-03T00", last: "2024-11-03T23"},
		{name: "Berlin fall-back day to 25 hours", s: spec(t, "day", "Europe/Berlin"), key: "2024-10-27", other: spec(t, "hour", "Europe/Berlin"),
			count: 25, first: "2024-10-27T00", last: "2024-10-27T23"},
		{name: "leap February to 29 days", s: spec(t, "month", "UTC"), key: "2024-02", other: utcDay,
			count: 29, first: "2024-02-01", last: "2024-02-29"},
		{name: "February to 28 days", s: spec(t, "month", "America/New_York"), key: "2023-02", other: nyDay,
			count: 28, first: "2023-02-01", last: "2023-02-28"},
		{name: "quarter to months", s: spec(t, "quarter", "UTC"), key: "2024-Q1", other: spec(t, "month", "UTC"),
			want: []string{"2024-01", "2024-02", "2024-03"}},
		{name: "year to ISO weeks it touches", s: spec(t, "year", "UTC"), key: "2024", other: spec(t, "week", "UTC"),
			count: 53, first: "2024-W01", last: "2025-W01"},
		{name: "New York DST day to UTC hours", s: nyDay, key: "2024-03-10", other: utcHour,
			count: 23, first: "2024-03-10T05", last: "2024-03-11T03"},
		{name: "Adelaide day to the 25 UTC hours it touches", s: spec(t, "day", "Australia/Adelaide"), key: "2024-06-01", other: utcHour,
			count: 25, first: "2024-05-31T14", last: "2024-06-01T14"},
		{name: "week to days, days bounded by a start", s: spec(t, "week", "UTC"), key: "2020-W01", other: spec(t, "day", "UTC", "", "2020-01-01"),
			count: 5, first: "2020-01-01", last: "2020-01-05"},
		{name: "week wholly before the days' start", s: spec(t, "week", "UTC"), key: "2019-W30", other: spec(t, "day", "UTC", "", "2020-01-01"),
			want: []string{}},
		{name: "day to an unpartitioned spec", s: utcDay, key: "2024-03-10", other: spec(t, "none", ""),
			want: []string{"all"}},
		{name: "unpartitioned to days is unbounded", s: spec(t, "none", ""), key: "all", other: utcDay,
			want: []string{}},
	} {
		p := mustParse(t, tc.s, tc.key)
		got := tc.s.Covering(p, tc.other)
		tc.check(t, got)
		for _, q := range got {
			if q.isAll() {
				continue
			}
			if !q.Start.Before(p.End) || !p.Start.Before(q.End) {
				t.Errorf("%s: %s does not overlap %s", tc.name, q.Key, p.Key)
			}
		}
	}
}

func TestContaining(t *testing.T) {
	t.Parallel()
	var (
		nyDay   = spec(t, "day", "America/New_York")
		isoWeek = spec(t, "week", "America/New_York")
		month   = spec(t, "month", "America/New_York")
	)
	for _, tc := range []overlapCase{
		{name: "day to its ISO week", s: nyDay, key: "2024-03-10", other: isoWeek, want: []string{"2024-W10"}},
		{name: "day to its Sunday week", s: nyDay, key: "2024-03-10", other: spec(t, "week", "America/New_York", "sunday"), want: []string{"2024-W11"}},
		{name: "day to its month", s: nyDay, key: "2024-03-10", other: month, want: []string{"2024-03"}},
		{name: "day to its quarter", s: nyDay, key: "2024-03-31", other: spec(t, "quarter", "America/New_York"), want: []string{"2024-Q1"}},
		{name: "day to its year", s: nyDay, key: "2024-12-31", other: spec(t, "year", "America/New_York"), want: []string{"2024"}},
		{name: "New Year's Eve to week-year 2020", s: nyDay, key: "2020-12-31", other: isoWeek, want: []string{"2020-W53"}},
		{name: "New Year's Day to week-year 2020", s: nyDay, key: "2021-01-01", other: isoWeek, want: []string{"2020-W53"}},
		{name: "New Year's Day to its month", s: nyDay, key: "2021-01-01", other: month, want: []string{"2021-01"}},
		{name: "week across months to both", s: isoWeek, key: "2024-W09", other: month, want: []string{"2024-02", "2024-03"}},
		{name: "repeated hour to its day", s: spec(t, "hour", "America/New_York"), key: "2024-11-03T01-05:00", other: nyDay, want: []string{"2024-11-03"}},
		{name: "UTC hour to two Adelaide days", s: spec(t, "hour", "UTC"), key: "2024-06-01T14", other: spec(t, "day", "Australia/Adelaide"),
			want: []string{"2024-06-01", "2024-06-02"}},
		{name: "day to an unpartitioned spec", s: nyDay, key: "2024-03-10", other: spec(t, "none", ""), want: []string{"all"}},
		{name: "day before the weeks' start", s: nyDay, key: "2019-06-01", other: spec(t, "week", "America/New_York", "", "2020-W01"), want: []string{}},
	} {
		p := mustParse(t, tc.s, tc.key)
		got := tc.s.Containing(p, tc.other)
		tc.check(t, got)
	}
}

// TestCoveringTilesTheCoarsePartition checks, over a year of DST changes, that
// the days covering each month and the hours covering each day tile it exactly.
func TestCoveringTilesTheCoarsePartition(t *testing.T) {
	t.Parallel()
	for _, zone := range []string{"America/New_York", "Australia/Lord_Howe", "America/Sao_Paulo"} {
		pairs := [][2]Spec{
			{spec(t, "month", zone), spec(t, "day", zone)},
			{spec(t, "day", zone), spec(t, "hour", zone)},
			{spec(t, "quarter", zone), spec(t, "month", zone)},
		}
		for _, pair := range pairs {
			coarse, fine := pair[0], pair[1]
			seq, err := coarse.Iter(coarse.At(instant(t, "2018-01-01T12:00:00Z")).Key, coarse.At(instant(t, "2019-12-31T12:00:00Z")).Key)
			if err != nil {
				t.Fatal(err)
			}
			for p := range seq {
				parts := coarse.Covering(p, fine)
				if len(parts) == 0 || !parts[0].Start.Equal(p.Start) || !parts[len(parts)-1].End.Equal(p.End) {
					t.Errorf("%s: %s %s is not tiled by its %s partitions %v", zone, coarse.Interval, p.Key, fine.Interval, keysOf(parts))
					continue
				}
				for _, q := range parts {
					if up := fine.Containing(q, coarse); len(up) != 1 || up[0].Key != p.Key {
						t.Errorf("%s: %s %s is contained in %v, want [%s]", zone, fine.Interval, q.Key, keysOf(up), p.Key)
					}
				}
			}
		}
	}
}
