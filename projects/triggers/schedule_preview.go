package triggers

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SchedulePreview is what the trigger form shows while a cron expression is
// typed: the schedule in words and its next ticks in the zone, so a person
// sees "Mon 11 Mar 02:30 EDT" rather than trusting their reading of five
// fields (and sees the DST nights fire as the package doc says).
type SchedulePreview struct {
	Cron     string        `json:"cron"`
	Timezone string        `json:"timezone"`
	Words    string        `json:"words"` // "" when the expression has no short reading
	Next     []PreviewTick `json:"next"`
}

// PreviewTick is one coming tick.
type PreviewTick struct {
	At    time.Time `json:"at"`    // UTC
	Local string    `json:"local"` // "Mon 2024-03-11 02:30 EDT", in the schedule's zone
	In    string    `json:"in"`    // "in 3 h 20 min" from now
}

// PreviewSchedule parses expr in zone and lists its next n ticks after now.
// Errors are ParseSchedule's (what was expected).
func PreviewSchedule(expr, zone string, now time.Time, n int) (SchedulePreview, error) {
	s, err := ParseSchedule(expr, zone)
	if err != nil {
		return SchedulePreview{}, err
	}
	if zone == "" {
		zone = "UTC"
	}
	out := SchedulePreview{Cron: s.Expr, Timezone: zone, Words: Describe(s.Expr), Next: []PreviewTick{}}
	for _, t := range s.Ticks(now, now.AddDate(9, 0, 0), n) {
		out.Next = append(out.Next, PreviewTick{At: t.UTC(), Local: t.In(s.Zone).Format("Mon 2006-01-02 15:04 MST"), In: "in " + humanSpan(t.Sub(now))})
	}
	return out, nil
}

// humanSpan writes d in its largest unit and the next one when not zero:
// "2 d 3 h", "3 h 20 min", "5 d", "45 s".
func humanSpan(d time.Duration) string {
	d = d.Round(time.Second)
	vals := []time.Duration{d / (24 * time.Hour), d % (24 * time.Hour) / time.Hour, d % time.Hour / time.Minute, d % time.Minute / time.Second}
	units := []string{"d", "h", "min", "s"}
	for i, v := range vals {
		if v == 0 {
			continue
		}
		out := fmt.Sprintf("%d %s", v, units[i])
		if i+1 < len(vals) && vals[i+1] > 0 {
			out += fmt.Sprintf(" %d %s", vals[i+1], units[i+1])
		}
		return out
	}
	return "0 s"
}

var descriptors = map[string]string{
	"@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
	"@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
}

var weekdays = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}

// Describe reads the common shapes of a cron expression in words ("every day
// at 02:30", "at 09:00 on Monday to Friday", "every 15 minutes"); "" for the
// rest, where the next ticks speak instead.
func Describe(expr string) string {
	e := strings.TrimSpace(expr)
	if d, ok := descriptors[e]; ok {
		e = d
	}
	f := strings.Fields(e)
	if len(f) != 5 {
		return ""
	}
	min, hour, dom, month, dow := f[0], f[1], f[2], f[3], f[4]
	if month != "*" {
		return ""
	}
	var when string
	switch {
	case min == "*" && hour == "*":
		when = "every minute"
	case strings.HasPrefix(min, "*/") && hour == "*":
		when = "every " + strings.TrimPrefix(min, "*/") + " minutes"
	case isNum(min) && hour == "*":
		when = "every hour at minute " + min
	case isNum(min) && strings.HasPrefix(hour, "*/"):
		when = fmt.Sprintf("every %s hours at minute %s", strings.TrimPrefix(hour, "*/"), min)
	case isNum(min) && isNum(hour):
		when = "at " + clock(hour, min)
	case isNum(min) && isList(hour):
		var ts []string
		for _, h := range strings.Split(hour, ",") {
			ts = append(ts, clock(h, min))
		}
		when = "at " + strings.Join(ts, ", ")
	default:
		return ""
	}
	switch {
	case dom == "*" && dow == "*":
		if strings.HasPrefix(when, "at ") {
			return "every day " + when
		}
		return when
	case dom == "*" && dow != "*":
		days := dayWords(dow)
		if days == "" {
			return ""
		}
		return when + " on " + days
	case isNum(dom) && dow == "*":
		return when + " on day " + dom + " of every month"
	}
	return ""
}

func isNum(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

func isList(s string) bool {
	for _, p := range strings.Split(s, ",") {
		if !isNum(p) {
			return false
		}
	}
	return true
}

func clock(h, m string) string {
	hi, _ := strconv.Atoi(h)
	mi, _ := strconv.Atoi(m)
	return fmt.Sprintf("%02d:%02d", hi, mi)
}

// dayWords reads a day-of-week field of numbers, ranges and lists.
func dayWords(dow string) string {
	var out []string
	for _, p := range strings.Split(dow, ",") {
		a, b, isRange := strings.Cut(p, "-")
		ai, err1 := strconv.Atoi(a)
		if err1 != nil || ai < 0 || ai > 7 {
			return ""
		}
		if !isRange {
			out = append(out, weekdays[ai%7])
			continue
		}
		bi, err2 := strconv.Atoi(b)
		if err2 != nil || bi < 0 || bi > 7 {
			return ""
		}
		out = append(out, weekdays[ai%7]+" to "+weekdays[bi%7])
	}
	return strings.Join(out, ", ")
}
