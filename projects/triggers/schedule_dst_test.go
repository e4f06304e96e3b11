package triggers

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// oracle is an independent model of the schedule semantics in the package
// doc: it walks real time minute by minute and watches the wall clock, with
// its own parser of cron fields, sharing no code with Schedule.
type oracle struct {
	f        [5]map[int]bool // minute, hour, dom, month, dow
	domStar  bool
	dowStar  bool
	everyHr  bool
	location *time.Location
}

func newOracle(t *testing.T, expr string, loc *time.Location) *oracle {
	t.Helper()
	parts := strings.Fields(expr)
	if len(parts) != 5 {
		t.Fatalf("oracle: %q is not five fields", expr)
	}
	lim := [5][2]int{{0, 59}, {0, 23}, {1, 31}, {1, 12}, {0, 6}}
	o := &oracle{location: loc, domStar: parts[2] == "*", dowStar: parts[4] == "*"}
	for i, p := range parts {
		o.f[i] = map[int]bool{}
		for _, item := range strings.Split(p, ",") {
			step := 1
			if a, b, ok := strings.Cut(item, "/"); ok {
				item = a
				step, _ = strconv.Atoi(b)
			}
			lo, hi := lim[i][0], lim[i][1]
			if item != "*" {
				a, b, ok := strings.Cut(item, "-")
				lo, _ = strconv.Atoi(a)
				hi = lo
				if ok {
					hi, _ = strconv.Atoi(b)
				}
			}
			for v := lo; v <= hi; v += step {
				o.f[i][v] = true
			}
		}
	}
	o.everyHr = len(o.f[1]) == 24
	return o
}

func (o *oracle) matches(wall int64) bool {
	w := time.Unix(wall, 0).UTC()
	if !o.f[0][w.Minute()] || !o.f[1][w.Hour()] || !o.f[3][int(w.Month())] {
		return false
	}
	dom, dow := o.f[2][w.Day()], o.f[4][int(w.Weekday())]
	if o.domStar || o.dowStar {
		return dom && dow
	}
	return dom || dow
}

// ticks walks (from, to] minute by minute.
func (o *oracle) ticks(from, to time.Time) []time.Time {
	var out []time.Time
	add := func(t time.Time) {
		if len(out) == 0 || !out[len(out)-1].Equal(t) {
			out = append(out, t)
		}
	}
	t := from.Truncate(time.Minute)
	prevWall := wallIn(t, o.location)
	maxWall := prevWall
	for t = t.Add(time.Minute); !t.After(to); t = t.Add(time.Minute) {
		w := wallIn(t, o.location)
		if !o.everyHr && w > prevWall+60 {
			for s := prevWall + 60; s < w; s += 60 { // wall minutes the clock jumped over
				if s > maxWall && o.matches(s) {
					add(t)
				}
			}
		}
		repeat := w <= maxWall
		if o.matches(w) && (o.everyHr || !repeat) {
			add(t)
		}
		prevWall = w
		if w > maxWall {
			maxWall = w
		}
	}
	return out
}

func wallIn(t time.Time, loc *time.Location) int64 {
	_, off := t.In(loc).Zone()
	return t.Unix() + int64(off)
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// TestScheduleMatchesOracle compares every tick of many expressions with the
// minute-by-minute oracle around DST nights of several zones, including a
// 30-minute shift (Lord Howe), a jump at midnight (São Paulo 2018) and a
// skipped day (Apia 2011).
func TestScheduleMatchesOracle(t *testing.T) {
	t.Parallel()
	exprs := []string{"30 1 * * *", "30 2 * * *", "0 2 * * *", "*/15 * * * *", "0 * * * *", "45 0 * * *",
		"0 0 * * *", "15 1,2,3 * * *", "0 12 * * 1", "30 2 10 3 0", "0,30 0-3 * * *", "59 23 * * *", "5 1-2 * * *"}
	nights := []struct{ zone, day string }{
		{"America/New_York", "2024-03-10"}, {"America/New_York", "2024-11-03"},
		{"Europe/London", "2024-03-31"}, {"Europe/London", "2024-10-27"},
		{"Australia/Lord_Howe", "2024-04-07"}, {"Australia/Lord_Howe", "2024-10-06"},
		{"America/Sao_Paulo", "2018-11-04"}, {"America/Sao_Paulo", "2019-02-16"},
		{"Pacific/Apia", "2011-12-30"}, {"Asia/Kolkata", "2024-03-10"}, {"UTC", "2024-02-29"},
	}
	for _, n := range nights {
		loc := mustZone(t, n.zone)
		day, _ := time.ParseInLocation("2006-01-02", n.day, loc)
		from, to := day.Add(-36*time.Hour), day.Add(60*time.Hour)
		for _, expr := range exprs {
			s, err := ParseSchedule(expr, n.zone)
			if err != nil {
				t.Fatal(err)
			}
			got := s.Ticks(from, to, 0)
			want := newOracle(t, expr, loc).ticks(from, to)
			if !sameTimes(got, want) {
				t.Errorf("%s %q around %s:\n got %s\nwant %s", n.zone, expr, n.day, fmtTimes(got, loc), fmtTimes(want, loc))
			}
		}
	}
}

// TestScheduleLeapYears walks six years for Feb 29 and month-end schedules.
func TestScheduleLeapYears(t *testing.T) {
	t.Parallel()
	loc := mustZone(t, "America/New_York")
	from := time.Date(2023, 1, 1, 0, 0, 0, 0, loc)
	to := time.Date(2029, 1, 1, 0, 0, 0, 0, loc)
	for _, expr := range []string{"0 0 29 2 *", "30 2 28,29 2 *"} {
		s, err := ParseSchedule(expr, "America/New_York")
		if err != nil {
			t.Fatal(err)
		}
		got := s.Ticks(from, to, 0)
		want := newOracle(t, expr, loc).ticks(from, to)
		if !sameTimes(got, want) {
			t.Errorf("%q:\n got %s\nwant %s", expr, fmtTimes(got, loc), fmtTimes(want, loc))
		}
	}
}

// TestScheduleDSTExamples pins the two cases the issue names, by hand.
func TestScheduleDSTExamples(t *testing.T) {
	t.Parallel()
	ny := mustZone(t, "America/New_York")
	cases := []struct {
		expr, after string
		want        []string // UTC
	}{
		// Fall back 2024-11-03: 01:30 happens at 05:30Z (EDT) and 06:30Z (EST); fire once, at the first.
		{"30 1 * * *", "2024-11-02T12:00:00Z", []string{"2024-11-03T05:30:00Z", "2024-11-04T06:30:00Z"}},
		// Spring forward 2024-03-10: 02:30 does not exist; fire at 03:00 EDT = 07:00Z, once.
		{"30 2 * * *", "2024-03-09T12:00:00Z", []string{"2024-03-10T07:00:00Z", "2024-03-11T06:30:00Z"}},
		// 02:00, 02:30 and 03:00 all fire at 03:00 EDT that night: one tick.
		{"0,30 2,3 * * *", "2024-03-10T06:00:00Z", []string{"2024-03-10T07:00:00Z", "2024-03-10T07:30:00Z", "2024-03-11T06:00:00Z"}},
		// Every 30 minutes through fall back: both 01:00 and 01:30 fire twice.
		{"*/30 1 * * *", "2024-11-03T04:00:00Z", []string{"2024-11-03T05:00:00Z", "2024-11-03T05:30:00Z", "2024-11-04T06:00:00Z"}},
		{"*/30 * * * *", "2024-11-03T05:00:00Z", []string{"2024-11-03T05:30:00Z", "2024-11-03T06:00:00Z", "2024-11-03T06:30:00Z"}},
	}
	for _, c := range cases {
		s, err := ParseSchedule(c.expr, "America/New_York")
		if err != nil {
			t.Fatal(err)
		}
		after, _ := time.Parse(time.RFC3339, c.after)
		var got []string
		for tk := s.Next(after); len(got) < len(c.want); tk = s.Next(tk) {
			got = append(got, tk.UTC().Format(time.RFC3339))
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%q after %s: got %v, want %v (%s)", c.expr, c.after, got, c.want, ny)
		}
	}
}

func TestParseScheduleErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ expr, zone, want string }{
		{"61 * * * *", "UTC", "bad cron"},
		{"* * *", "UTC", "want five fields"},
		{"0 0 31 2 *", "UTC", "never fires"},
		{"@every 1h", "UTC", "@every"},
		{"TZ=UTC 0 0 * * *", "UTC", "timezone:"},
		{"0 0 * * *", "Mars/Olympus", "unknown time zone"},
		{"0 0 * * *", "Local", "depends on the machine"},
	}
	for _, c := range cases {
		_, err := ParseSchedule(c.expr, c.zone)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseSchedule(%q, %q) = %v, want an error containing %q", c.expr, c.zone, err, c.want)
		}
	}
	if _, err := ParseSchedule("@daily", "Europe/Paris"); err != nil {
		t.Errorf("@daily: %v", err)
	}
}

func sameTimes(a, b []time.Time) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

func fmtTimes(ts []time.Time, loc *time.Location) string {
	var s []string
	for _, t := range ts {
		s = append(s, t.In(loc).Format("01-02 15:04 MST"))
	}
	return strings.Join(s, ", ")
}
