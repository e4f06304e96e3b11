package partitions

import (
	"strings"
	"testing"
	"time"
)

func TestParseInterval(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want Interval
	}{
		{"hour", Hour}, {"day", Day}, {"week", Week}, {"month", Month},
		{"quarter", Quarter}, {"year", Year}, {"none", None},
		{" Day ", Day}, {"MONTH", Month},
	} {
		got, err := ParseInterval(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseInterval(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "daily", "days", "minute", "all"} {
		_, err := ParseInterval(in)
		wantError(t, err, ErrInvalidSpec, `"`+in+`"`, "want one of hour, day, week, month, quarter, year, none")
	}
}

func TestNewSpecDefaults(t *testing.T) {
	t.Parallel()
	s := spec(t, "week", "")
	if s.Zone != time.UTC || s.WeekStart != time.Monday || !s.Start.IsZero() {
		t.Errorf("NewSpec(week) = %+v; want UTC, Monday, unbounded", s)
	}
	if got := s.String(); got != "week partitions in UTC, weeks starting Monday" {
		t.Errorf("String() = %q", got)
	}
	s = spec(t, "week", "Europe/Berlin", "SUN")
	if s.WeekStart != time.Sunday || s.Zone.String() != "Europe/Berlin" {
		t.Errorf("NewSpec(week, Europe/Berlin, SUN) = %+v", s)
	}
}

func TestNewSpecStart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		interval, zone, start string
		wantFirst             string // key of the first partition
		wantStart             string // its start, RFC 3339
	}{
		{"day", "America/New_York", "2020-01-01", "2020-01-01", "2020-01-01T00:00:00-05:00"},
		{"week", "UTC", "2020-W01", "2020-W01", "2019-12-30T00:00:00Z"},
		{"week", "UTC", "2020-01-01", "2020-W01", "2019-12-30T00:00:00Z"},          // a date means the week containing it
		{"month", "Asia/Kolkata", "2020-02-15", "2020-02", "2020-01-31T18:30:00Z"}, // Kolkata is UTC+5:30
		{"quarter", "UTC", "2024-Q2", "2024-Q2", "2024-04-01T00:00:00Z"},
		{"year", "UTC", "2024-06-30", "2024", "2024-01-01T00:00:00Z"},
		{"hour", "America/New_York", "2024-03-10", "2024-03-10T00", "2024-03-10T00:00:00-05:00"},
		{"hour", "America/New_York", "2024-11-03T01-05:00", "2024-11-03T01-05:00", "2024-11-03T01:00:00-05:00"},
	} {
		s := spec(t, tc.interval, tc.zone, "", tc.start)
		f, ok := s.first()
		if !ok || f.Key != tc.wantFirst || !f.Start.Equal(instant(t, tc.wantStart)) || !s.Start.Equal(f.Start) {
			t.Errorf("NewSpec(%s, %s, start %q): first = %q at %s (Start %s); want %q at %s",
				tc.interval, tc.zone, tc.start, f.Key, f.Start, s.Start, tc.wantFirst, tc.wantStart)
		}
	}
}

func TestNewSpecErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		interval, zone, weekStart, start string
		fragments                        []string
	}{
		{"daily", "", "", "", []string{`interval "daily"`, "want one of hour, day, week"}},
		{"day", "America/NewYork", "", "", []string{`zone "America/NewYork"`, "IANA", "America/New_York"}},
		{"day", "Local", "", "", []string{`zone "Local"`, "depends on the machine"}},
		{"week", "UTC", "mondy", "", []string{`week start "mondy"`, "monday, tuesday"}},
		{"day", "UTC", "", "2020-13-01", []string{"start", `"2020-13-01"`, "month 13"}},
		{"day", "UTC", "", "2020/01/01", []string{"start", `"2020/01/01"`, "YYYY-MM-DD"}},
		{"week", "UTC", "", "2020-W54", []string{"start", `"2020-W54"`, "53 weeks"}},
		{"week", "UTC", "", "2020-02-30", []string{"start", `"2020-02-30"`, "2020-02 has 29 days"}},
		{"month", "UTC", "", "Jan 2020", []string{`start "Jan 2020" is neither a month key (YYYY-MM`, "nor a date (YYYY-MM-DD"}},
		{"hour", "America/New_York", "", "2024-03-10T02", []string{"start", "does not exist", "clocks jump"}},
		{"none", "UTC", "", "2020-01-01", []string{`start "2020-01-01" cannot be used with interval none`}},
	} {
		_, err := NewSpec(tc.interval, tc.zone, tc.weekStart, tc.start)
		wantError(t, err, ErrInvalidSpec, tc.fragments...)
	}
}

func TestValidateHandBuiltSpecs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		spec     Spec
		fragment string
	}{
		{Spec{}, `interval "" is not valid`},
		{Spec{Interval: "daily"}, `interval "daily" is not valid`},
		{Spec{Interval: Week, WeekStart: 7}, "week start 7 is not a weekday"},
		{Spec{Interval: None, Start: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)}, "cannot be used with interval none"},
	} {
		wantError(t, tc.spec.Validate(), ErrInvalidSpec, tc.fragment)
		_, err := tc.spec.Parse("2024-01-01")
		wantError(t, err, ErrInvalidSpec, tc.fragment)
		_, err = tc.spec.Range("2024-01-01", "2024-01-02")
		wantError(t, err, ErrInvalidSpec, tc.fragment)
	}
	// A literal is taken at face value: zero WeekStart is Sunday, nil Zone is UTC.
	lit := Spec{Interval: Week}
	if err := lit.Validate(); err != nil {
		t.Fatal(err)
	}
	wantPartition(t, lit.At(instant(t, "2024-03-13T12:00:00Z")), "2024-W11", "2024-03-10T00:00:00Z", "2024-03-17T00:00:00Z")
}

func TestInvalidSpecPanicsWithAdvice(t *testing.T) {
	t.Parallel()
	defer func() {
		r := recover()
		msg, _ := r.(string)
		if !strings.Contains(msg, "Spec.At on an invalid spec") || !strings.Contains(msg, "NewSpec") {
			t.Errorf("panic = %v; want advice to use NewSpec", r)
		}
	}()
	Spec{Interval: "fortnight"}.At(time.Now())
}

func TestLoadZoneAndWeekday(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"", "UTC", " Asia/Kolkata "} {
		if _, err := LoadZone(name); err != nil {
			t.Errorf("LoadZone(%q): %v", name, err)
		}
	}
	for in, want := range map[string]time.Weekday{"monday": time.Monday, "Sun": time.Sunday, " SATURDAY ": time.Saturday, "thu": time.Thursday} {
		if got, err := ParseWeekday(in); err != nil || got != want {
			t.Errorf("ParseWeekday(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseWeekday("weekday"); err == nil {
		t.Error("ParseWeekday(weekday) succeeded")
	}
	if got := Intervals(); len(got) != 7 || got[0] != Hour || got[6] != None {
		t.Errorf("Intervals() = %v", got)
	}
}
