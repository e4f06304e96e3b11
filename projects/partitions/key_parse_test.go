package partitions

import (
	"sort"
	"testing"
	"time"
)

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		interval, zone, key string
		kind                error
		want                string // the whole message, or a fragment when partial
		partial             bool
	}{
		// The brief's example, verbatim.
		{"day", "UTC", "2024-3-10", ErrInvalidKey, `partition "2024-3-10" is not a day key: want YYYY-MM-DD (e.g. 2024-03-10)`, false},
		{"day", "UTC", "2024-13-01", ErrInvalidKey, `partition "2024-13-01" is not a valid day: month 13 is not between 01 and 12`, false},
		{"day", "UTC", "2024-12-00", ErrInvalidKey, `partition "2024-12-00" is not a valid day: day 00 is not between 01 and 31`, false},
		{"day", "UTC", "garbage", ErrInvalidKey, `partition "garbage" is not a day key: want YYYY-MM-DD (e.g. 2024-03-10)`, false},
		{"day", "UTC", "", ErrInvalidKey, `partition "" is not a day key`, true},
		{"day", "UTC", " 2024-03-10", ErrInvalidKey, "is not a day key", true},
		{"day", "UTC", "2024-03-10T02", ErrInvalidKey, `partition "2024-03-10T02" is not a day key: want YYYY-MM-DD (e.g. 2024-03-10); it looks like an hour key, but this spec is partitioned by day`, false},
		{"day", "UTC", "2024-W10", ErrInvalidKey, "it looks like a week key", true},
		{"day", "UTC", "2023-02-29", ErrInvalidKey, `partition "2023-02-29" is not a valid day: 2023-02 has 28 days (2023 is not a leap year)`, false},
		{"day", "UTC", "1900-02-29", ErrInvalidKey, "1900 is not a leap year", true},
		{"day", "UTC", "2024-04-31", ErrInvalidKey, "2024-04 has 30 days", true},
		{"hour", "UTC", "2024-03-10", ErrInvalidKey, "want YYYY-MM-DDTHH (e.g. 2024-03-10T14", true},
		{"hour", "UTC", "2024-03-10T2", ErrInvalidKey, "is not an hour key", true},
		{"hour", "UTC", "2024-03-10 02", ErrInvalidKey, "is not an hour key", true},
		{"hour", "UTC", "2024-03-10T24", ErrInvalidKey, "hour 24 is not between 00 and 23", true},
		{"hour", "UTC", "2024-03-10T02Z", ErrInvalidKey, "is not an hour key", true},
		{"hour", "UTC", "2024-03-10T02+00:60", ErrInvalidKey, "UTC offset +00:60 is not a valid", true},
		{"hour", "UTC", "2024-03-10T02+00:00", ErrInvalidKey, `occurs only once in UTC: want "2024-03-10T02"`, true},
		{"week", "UTC", "2024-W1", ErrInvalidKey, "want YYYY-Www (e.g. 2024-W10)", true},
		{"week", "UTC", "2024W10", ErrInvalidKey, "is not a week key", true},
		{"week", "UTC", "2024-W00", ErrInvalidKey, "week 00 is not between 01 and 52", true},
		{"week", "UTC", "2021-W53", ErrInvalidKey, `partition "2021-W53" is not a valid week: week 53 is not between 01 and 52: week-year 2021 has 52 weeks starting Monday`, false},
		{"week", "UTC", "2024-03-10", ErrInvalidKey, "it looks like a day key", true},
		{"month", "UTC", "2024-3", ErrInvalidKey, "want YYYY-MM (e.g. 2024-03)", true},
		{"month", "UTC", "2024-00", ErrInvalidKey, "month 00 is not between 01 and 12", true},
		{"quarter", "UTC", "2024-Q5", ErrInvalidKey, "quarter 5 is not between 1 and 4", true},
		{"quarter", "UTC", "2024-q1", ErrInvalidKey, "want YYYY-Qn (e.g. 2024-Q1)", true},
		{"year", "UTC", "24", ErrInvalidKey, "want YYYY (e.g. 2024)", true},
		{"year", "UTC", "2024-01", ErrInvalidKey, "it looks like a month key", true},
		{"none", "UTC", "ALL", ErrInvalidKey, `partition "ALL" does not exist: this spec is not partitioned (interval none) and its only partition is "all"`, false},
		{"none", "UTC", "2024-03-10", ErrInvalidKey, "only partition is", true},
		// Keys that are well formed but name no partition in the zone.
		{"hour", "America/New_York", "2024-03-10T02", ErrSkipped, `partition "2024-03-10T02" does not exist in America/New_York: clocks jump from 2024-03-10 02:00 to 03:00`, false},
		{"hour", "America/New_York", "2024-11-03T01", ErrAmbiguous, `partition "2024-11-03T01" is ambiguous in America/New_York: clocks fall back and that hour occurs twice; want "2024-11-03T01-04:00" (first) or "2024-11-03T01-05:00" (second)`, false},
		{"hour", "America/New_York", "2024-11-03T01-06:00", ErrInvalidKey, `want "2024-11-03T01-04:00" (first) or "2024-11-03T01-05:00" (second)`, true},
		{"hour", "America/New_York", "2024-11-03T02-05:00", ErrInvalidKey, `want "2024-11-03T02"`, true},
		{"day", "Pacific/Apia", "2011-12-30", ErrSkipped, `partition "2011-12-30" does not exist in Pacific/Apia: clocks jump from 2011-12-30 00:00 to 2011-12-31 00:00`, false},
	} {
		s := spec(t, tc.interval, tc.zone)
		p, err := s.Parse(tc.key)
		if err == nil {
			t.Errorf("%s: Parse(%q) = %q, want an error", s, tc.key, p.Key)
			continue
		}
		if !tc.partial && err.Error() != tc.want {
			t.Errorf("%s: Parse(%q) error\n got: %s\nwant: %s", s, tc.key, err, tc.want)
		}
		wantError(t, err, tc.kind, tc.want)
	}
}

// TestParseValidKeys checks that each interval's keys parse, round-trip and
// name the expected bounds, including leap days.
func TestParseValidKeys(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		interval, key, start, end string
	}{
		{"hour", "2024-02-29T23", "2024-02-29T23:00:00Z", "2024-03-01T00:00:00Z"},
		{"day", "2024-02-29", "2024-02-29T00:00:00Z", "2024-03-01T00:00:00Z"},
		{"day", "2000-02-29", "2000-02-29T00:00:00Z", "2000-03-01T00:00:00Z"},
		{"day", "1900-02-28", "1900-02-28T00:00:00Z", "1900-03-01T00:00:00Z"},
		{"day", "0001-01-01", "0001-01-01T00:00:00Z", "0001-01-02T00:00:00Z"},
		{"day", "9999-12-31", "9999-12-31T00:00:00Z", ""}, // ends in year 10000
		{"week", "2024-W09", "2024-02-26T00:00:00Z", "2024-03-04T00:00:00Z"},
		{"month", "2024-02", "2024-02-01T00:00:00Z", "2024-03-01T00:00:00Z"},
		{"month", "2023-12", "2023-12-01T00:00:00Z", "2024-01-01T00:00:00Z"},
		{"quarter", "2024-Q4", "2024-10-01T00:00:00Z", "2025-01-01T00:00:00Z"},
		{"year", "2024", "2024-01-01T00:00:00Z", "2025-01-01T00:00:00Z"},
	} {
		s := spec(t, tc.interval, "UTC")
		p := mustParse(t, s, tc.key)
		if tc.end == "" { // RFC 3339 cannot spell year 10000
			if p.Duration() != 24*time.Hour {
				t.Errorf("9999-12-31 lasts %v", p.Duration())
			}
			continue
		}
		wantPartition(t, p, tc.key, tc.start, tc.end)
		if at := s.At(p.Start); !samePartition(at, p) {
			t.Errorf("At(%s) = %+v, want %+v", p.Start, at, p)
		}
	}
}

func TestParseBeforeStart(t *testing.T) {
	t.Parallel()
	s := spec(t, "day", "America/New_York", "", "2020-01-01")
	_, err := s.Parse("2019-12-31")
	wantError(t, err, ErrBeforeStart, `partition "2019-12-31" is before the first partition "2020-01-01"`)
	mustParse(t, s, "2020-01-01")

	w := spec(t, "week", "UTC", "", "2020-01-01") // first partition is 2020-W01, which starts 2019-12-30
	mustParse(t, w, "2020-W01")
	_, err = w.Parse("2019-W52")
	wantError(t, err, ErrBeforeStart, `first partition "2020-W01"`)
}

// TestKeysSortInTimeOrder walks a year of each interval in zones west and east
// of UTC and checks the documented ordering rule: keys sort like Start except
// for a repeated hour east of UTC.
func TestKeysSortInTimeOrder(t *testing.T) {
	t.Parallel()
	for _, zone := range []string{"America/New_York", "Europe/Berlin", "Australia/Adelaide"} {
		for _, iv := range []string{"hour", "day", "week", "month", "quarter", "year"} {
			s := spec(t, iv, zone)
			from, to := s.At(instant(t, "2023-12-25T00:00:00Z")), s.At(instant(t, "2025-01-05T00:00:00Z"))
			seq, err := s.Iter(from.Key, to.Key)
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for p := range seq {
				keys = append(keys, p.Key)
			}
			if sort.StringsAreSorted(keys) {
				continue
			}
			if iv != "hour" || zone == "America/New_York" {
				t.Errorf("%s keys in %s are not sorted", iv, zone)
				continue
			}
			// East of UTC only the repeated-hour pairs may be out of order.
			for i := 1; i < len(keys); i++ {
				if keys[i] < keys[i-1] && keys[i][:13] != keys[i-1][:13] {
					t.Errorf("%s: %s sorts before %s", zone, keys[i], keys[i-1])
				}
			}
		}
	}
}
