package partitions

import (
	"testing"
	"time"
)

func TestCountAndRange(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		interval, zone, from, to string
		want                     int
	}{
		{"day", "UTC", "2020-01-01", "2024-12-31", 1827},
		{"day", "America/New_York", "2020-01-01", "2024-12-31", 1827},
		{"day", "UTC", "2024-01-01", "2024-12-31", 366},
		{"day", "UTC", "2023-01-01", "2023-12-31", 365},
		{"day", "UTC", "1900-01-01", "1900-12-31", 365},
		{"day", "UTC", "2000-01-01", "2000-12-31", 366},
		{"day", "UTC", "2024-02-28", "2024-03-01", 3},
		{"day", "UTC", "2024-03-10", "2024-03-10", 1},
		{"day", "Pacific/Apia", "2011-12-01", "2011-12-31", 30}, // 2011-12-30 was skipped
		{"week", "UTC", "2020-W01", "2020-W53", 53},
		{"week", "UTC", "2020-W01", "2024-W52", 261},
		{"week", "America/New_York", "2019-W52", "2020-W02", 3},
		{"month", "UTC", "2020-01", "2024-12", 60},
		{"month", "Europe/Berlin", "2023-11", "2024-02", 4},
		{"quarter", "UTC", "2020-Q1", "2024-Q4", 20},
		{"year", "UTC", "2020", "2024", 5},
		{"hour", "UTC", "2024-03-10T00", "2024-03-10T00", 1},
		{"hour", "America/New_York", "2024-01-01T00", "2024-12-31T23", 8784},
		{"hour", "Europe/Berlin", "2024-01-01T00", "2024-12-31T23", 8784},
		{"hour", "Australia/Adelaide", "2024-01-01T00", "2024-12-31T23", 8784},
		{"hour", "Australia/Lord_Howe", "2024-01-01T00", "2024-12-31T23", 8785}, // a 30-minute hour each spring
		{"hour", "America/New_York", "2024-11-03T01-04:00", "2024-11-03T01-05:00", 2},
		{"hour", "America/New_York", "2024-03-10T01", "2024-03-10T03", 2},
		{"none", "UTC", "all", "all", 1},
	} {
		s := spec(t, tc.interval, tc.zone)
		n, err := s.Count(tc.from, tc.to)
		if err != nil || n != tc.want {
			t.Errorf("%s: Count(%s, %s) = %d, %v; want %d", s, tc.from, tc.to, n, err, tc.want)
			continue
		}
		ps, err := s.Range(tc.from, tc.to)
		if err != nil || len(ps) != tc.want {
			t.Errorf("%s: Range(%s, %s) has %d partitions, %v; want %d", s, tc.from, tc.to, len(ps), err, tc.want)
			continue
		}
		if ps[0].Key != tc.from || ps[len(ps)-1].Key != tc.to {
			t.Errorf("%s: Range(%s, %s) runs %s..%s", s, tc.from, tc.to, ps[0].Key, ps[len(ps)-1].Key)
		}
		for i := 1; i < len(ps); i++ {
			if !ps[i].Start.Equal(ps[i-1].End) {
				t.Errorf("%s: %s ends at %s but %s starts at %s", s, ps[i-1].Key, ps[i-1].End, ps[i].Key, ps[i].Start)
				break
			}
		}
	}
}

func TestRangeErrors(t *testing.T) {
	t.Parallel()
	day := spec(t, "day", "America/New_York", "", "2020-01-01")
	for _, tc := range []struct {
		s         Spec
		from, to  string
		kind      error
		fragments []string
	}{
		{day, "2024-12-31", "2024-01-01", ErrInvalidRange, []string{"range 2024-12-31..2024-01-01 is reversed"}},
		{day, "2024-3-1", "2024-12-31", ErrInvalidKey, []string{`from: partition "2024-3-1" is not a day key`}},
		{day, "2024-01-01", "2024-02-30", ErrInvalidKey, []string{`to: partition "2024-02-30"`, "2024-02 has 29 days"}},
		{day, "2019-12-31", "2024-01-01", ErrBeforeStart, []string{`from: partition "2019-12-31" is before the first partition "2020-01-01"`}},
		{spec(t, "hour", "UTC"), "1900-01-01T00", "2100-01-01T00", ErrRangeTooLarge,
			[]string{"range 1900-01-01T00..2100-01-01T00 has 1,753,177 hour partitions, more than the limit of 1,000,000"}},
		{spec(t, "hour", "America/New_York"), "2024-11-03T01", "2024-11-04T00", ErrAmbiguous, []string{"from: ", "2024-11-03T01-04:00"}},
	} {
		_, err := tc.s.Range(tc.from, tc.to)
		wantError(t, err, tc.kind, tc.fragments...)
		if tc.kind != ErrRangeTooLarge {
			_, err = tc.s.Count(tc.from, tc.to)
			wantError(t, err, tc.kind, tc.fragments...)
			_, err = tc.s.Iter(tc.from, tc.to)
			wantError(t, err, tc.kind, tc.fragments...)
		}
	}
	// Count and Iter are not capped.
	hours := spec(t, "hour", "UTC")
	if n, err := hours.Count("1900-01-01T00", "2100-01-01T00"); err != nil || n != 1_753_177 {
		t.Errorf("Count over two centuries of hours = %d, %v", n, err)
	}
}

// TestIterIsLazy walks the first partitions of an 8-million-hour range and
// checks that breaking early costs a handful of allocations, not the range.
// Not parallel: testing.AllocsPerRun refuses to run in a parallel test.
func TestIterIsLazy(t *testing.T) {
	s := spec(t, "hour", "America/New_York")
	seq, err := s.Iter("2000-01-01T00", "2999-12-31T23")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for p := range seq {
		keys = append(keys, p.Key)
		if len(keys) == 3 {
			break
		}
	}
	if len(keys) != 3 || keys[0] != "2000-01-01T00" || keys[2] != "2000-01-01T02" {
		t.Errorf("first three hours = %v", keys)
	}
	allocs := testing.AllocsPerRun(10, func() {
		seq, _ := s.Iter("2000-01-01T00", "2999-12-31T23")
		n := 0
		for range seq {
			if n++; n == 10 {
				break
			}
		}
	})
	if allocs > 100 {
		t.Errorf("iterating 10 of 8.7M hours allocates %v times; Iter is not lazy", allocs)
	}
	// Iter and Range agree, including across a repeated hour.
	seq, err = s.Iter("2024-11-02T23", "2024-11-03T03")
	if err != nil {
		t.Fatal(err)
	}
	keys = keys[:0]
	for p := range seq {
		keys = append(keys, p.Key)
	}
	ps, _ := s.Range("2024-11-02T23", "2024-11-03T03")
	if got, want := keys, keysOf(ps); len(got) != 6 || len(want) != 6 || got[2] != "2024-11-03T01-04:00" || got[3] != want[3] {
		t.Errorf("Iter = %v, Range = %v", got, want)
	}
}

func TestLatest(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s    Spec
		now  string
		want string // "" for the zero Partition
	}{
		{spec(t, "day", "America/New_York"), "2024-03-10T12:00:00-04:00", "2024-03-09"},
		{spec(t, "day", "America/New_York"), "2024-03-10T00:00:00-05:00", "2024-03-09"},
		{spec(t, "day", "America/New_York"), "2024-03-09T23:59:59.999-05:00", "2024-03-08"},
		{spec(t, "day", "Asia/Kolkata"), "2024-03-10T18:29:00Z", "2024-03-09"},
		{spec(t, "day", "Asia/Kolkata"), "2024-03-10T18:30:00Z", "2024-03-10"},
		{spec(t, "hour", "America/New_York"), "2024-11-03T06:30:00Z", "2024-11-03T01-04:00"},
		{spec(t, "hour", "America/New_York"), "2024-03-10T07:10:00Z", "2024-03-10T01"},
		{spec(t, "week", "UTC"), "2024-03-11T00:00:00Z", "2024-W10"},
		{spec(t, "week", "UTC", "sunday"), "2024-03-11T00:00:00Z", "2024-W10"},
		{spec(t, "month", "UTC"), "2024-01-15T00:00:00Z", "2023-12"},
		{spec(t, "quarter", "UTC"), "2024-05-15T00:00:00Z", "2024-Q1"},
		{spec(t, "year", "UTC"), "2024-05-15T00:00:00Z", "2023"},
		{spec(t, "day", "UTC", "", "2024-01-01"), "2024-01-01T10:00:00Z", ""},
		{spec(t, "day", "UTC", "", "2024-01-01"), "2024-01-02T00:00:00Z", "2024-01-01"},
		{spec(t, "none", "UTC"), "2024-01-02T00:00:00Z", "all"},
	} {
		got := tc.s.Latest(instant(t, tc.now))
		if got.Key != tc.want || (tc.want == "" && !got.IsZero()) {
			t.Errorf("%s: Latest(%s) = %q, want %q", tc.s, tc.now, got.Key, tc.want)
		}
		if tc.want != "" && tc.want != AllKey && got.End.After(instant(t, tc.now)) {
			t.Errorf("%s: Latest(%s) = %s is not complete", tc.s, tc.now, got.Key)
		}
	}
}

func TestContains(t *testing.T) {
	t.Parallel()
	day := mustParse(t, spec(t, "day", "America/New_York"), "2024-03-10")
	for at, want := range map[string]bool{
		"2024-03-10T00:00:00-05:00":           true,
		"2024-03-10T23:59:59.999999999-04:00": true,
		"2024-03-11T00:00:00-04:00":           false,
		"2024-03-09T23:59:59-05:00":           false,
		"2024-03-10T04:00:00Z":                false,
	} {
		if got := day.Contains(instant(t, at)); got != want {
			t.Errorf("2024-03-10 in New York contains %s: %v, want %v", at, got, want)
		}
	}
	all := mustParse(t, spec(t, "none", ""), "all")
	if !all.Contains(time.Time{}) || !all.Contains(instant(t, "9999-01-01T00:00:00Z")) {
		t.Error("the all partition does not contain everything")
	}
	if seq, err := spec(t, "none", "").Iter("all", "all"); err != nil {
		t.Error(err)
	} else {
		n := 0
		for range seq {
			n++
		}
		if n != 1 {
			t.Errorf("Iter(all, all) yielded %d partitions", n)
		}
	}
}

// BenchmarkIterDays walks 100,000 New York days (1900-01-01 to 2173-10-14).
func BenchmarkIterDays(b *testing.B) {
	s, err := NewSpec("day", "America/New_York", "", "")
	if err != nil {
		b.Fatal(err)
	}
	to := time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 99_999).Format(time.DateOnly)
	if n, err := s.Count("1900-01-01", to); err != nil || n != 100_000 {
		b.Fatalf("Count(1900-01-01, %s) = %d, %v", to, n, err)
	}
	b.ReportAllocs()
	for b.Loop() {
		seq, err := s.Iter("1900-01-01", to)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for range seq {
			n++
		}
		if n != 100_000 {
			b.Fatalf("iterated %d days", n)
		}
	}
}

// BenchmarkIterHours walks 100,000 New York hours (about 11 years).
func BenchmarkIterHours(b *testing.B) {
	s, err := NewSpec("hour", "America/New_York", "", "")
	if err != nil {
		b.Fatal(err)
	}
	from := mustParse(b, s, "2020-01-01T00")
	to := s.At(from.Start.Add(99_999 * time.Hour)).Key // New York hours are all one hour long
	b.ReportAllocs()
	for b.Loop() {
		seq, err := s.Iter(from.Key, to)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for range seq {
			n++
		}
		if n != 100_000 {
			b.Fatalf("iterated %d hours", n)
		}
	}
}

// BenchmarkCountHours counts two centuries of hours without building them.
func BenchmarkCountHours(b *testing.B) {
	s, err := NewSpec("hour", "Europe/Berlin", "", "")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Count("1900-01-01T00", "2100-01-01T00"); err != nil {
			b.Fatal(err)
		}
	}
}
