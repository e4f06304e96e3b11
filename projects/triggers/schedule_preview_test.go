package triggers

import (
	"strings"
	"testing"
	"time"
)

func TestDescribe(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ expr, want string }{
		{"30 2 * * *", "every day at 02:30"},
		{"@daily", "every day at 00:00"},
		{"0 9 * * 1-5", "at 09:00 on Monday to Friday"},
		{"*/15 * * * *", "every 15 minutes"},
		{"5 * * * *", "every hour at minute 5"},
		{"0 6,18 * * *", "every day at 06:00, 18:00"},
		{"0 3 1 * *", "at 03:00 on day 1 of every month"},
		{"0 0 * * 0,6", "at 00:00 on Sunday, Saturday"},
		{"0 0 1 1 *", ""}, // a month: no short reading, the ticks speak
		{"0 0 1 * 1", ""},
	} {
		if got := Describe(c.expr); got != c.want {
			t.Errorf("Describe(%q) = %q, want %q", c.expr, got, c.want)
		}
	}
}

// TestPreviewScheduleInZone: the next ticks read in the schedule's zone,
// through the spring-forward night (02:30 does not exist on 2024-03-10 in New
// York: it fires at 03:00 EDT, the package doc's rule).
func TestPreviewScheduleInZone(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 3, 9, 12, 0, 0, 0, time.UTC)
	p, err := PreviewSchedule("30 2 * * *", "America/New_York", now, 3)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tk := range p.Next {
		got = append(got, tk.Local+" | "+tk.At.Format(time.RFC3339)+" | "+tk.In)
	}
	want := []string{
		"Sun 2024-03-10 03:00 EDT | 2024-03-10T07:00:00Z | in 19 h",
		"Mon 2024-03-11 02:30 EDT | 2024-03-11T06:30:00Z | in 1 d 18 h",
		"Tue 2024-03-12 02:30 EDT | 2024-03-12T06:30:00Z | in 2 d 18 h",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("ticks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p.Words != "every day at 02:30" || p.Timezone != "America/New_York" {
		t.Fatalf("preview %+v", p)
	}
	if _, err := PreviewSchedule("61 * * * *", "UTC", now, 3); err == nil || !strings.Contains(err.Error(), "five fields") {
		t.Fatalf("a bad minute: %v", err)
	}
	if _, err := PreviewSchedule("0 0 * * *", "Mars/Base", now, 3); err == nil || !strings.Contains(err.Error(), "IANA") {
		t.Fatalf("a bad zone: %v", err)
	}
}

func TestHumanSpan(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		45 * time.Second: "45 s", 3*time.Hour + 20*time.Minute: "3 h 20 min", 5 * 24 * time.Hour: "5 d",
		26*time.Hour + 5*time.Minute: "1 d 2 h", 0: "0 s",
	} {
		if got := humanSpan(d); got != want {
			t.Errorf("humanSpan(%v) = %q, want %q", d, got, want)
		}
	}
}
