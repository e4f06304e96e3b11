// time formatting and parsing across zones, durations and calendar math.
package main

import (
	"fmt"
	"time"
)

func main() {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		fmt.Println("no tz:", err)
		return
	}
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	t := time.Date(2025, time.March, 9, 6, 30, 0, 0, time.UTC)
	fmt.Println(t, t.In(ny), t.In(tokyo))
	fmt.Println(t.In(ny).Format(time.RFC3339), t.In(ny).Format("Mon Jan _2 15:04:05 MST 2006"))
	before := time.Date(2025, time.March, 9, 1, 30, 0, 0, ny)
	after := before.Add(time.Hour)
	fmt.Println(before, after, after.Sub(before))
	fmt.Println(before.AddDate(0, 0, 1).Sub(before))
	gap := time.Date(2025, time.March, 9, 2, 30, 0, 0, ny)
	fmt.Println(gap)
	name, off := gap.Zone()
	fmt.Println(name, off)

	layouts := []string{time.RFC3339, time.RFC3339Nano, "2006-01-02 15:04:05 -0700", time.RFC1123Z, time.Kitchen, "02/01/2006", "2006-01-02T15:04:05.000Z07:00"}
	inputs := []string{"2025-06-01T12:00:00+02:00", "2025-06-01T12:00:00.123456789Z", "2025-06-01 12:00:00 -0500", "Sun, 01 Jun 2025 12:00:00 +0000", "3:04PM", "31/12/2024", "2025-06-01T12:00:00.5Z"}
	for i, l := range layouts {
		p, err := time.Parse(l, inputs[i])
		fmt.Println(p, p.UTC().Format(time.RFC3339Nano), err)
	}
	_, err = time.Parse("2006-01-02", "2025-02-30")
	fmt.Println(err)
	_, err = time.Parse(time.RFC3339, "yesterday")
	fmt.Println(err)
	local, _ := time.ParseInLocation("2006-01-02 15:04", "2025-11-02 01:30", ny)
	fmt.Println(local, local.UTC())

	for _, s := range []string{"1h30m", "90s", "1.5h", "-2m3.5s", "300ms", "1us", "bad"} {
		d, err := time.ParseDuration(s)
		fmt.Println(d, d.Seconds(), d.Round(time.Minute), d.Truncate(time.Second), err)
	}
	d := 26*time.Hour + 3*time.Minute + 4*time.Second + 5*time.Millisecond
	fmt.Println(d, d.Hours(), d.Minutes(), time.Duration(1500)*time.Microsecond, time.Duration(0))

	day := time.Date(2024, time.December, 30, 0, 0, 0, 0, time.UTC)
	y, w := day.ISOWeek()
	fmt.Println(day.Weekday(), day.YearDay(), y, w)
	fmt.Println(time.Date(2024, 1, 31, 0, 0, 0, 0, time.UTC).AddDate(0, 1, 0).Format("2006-01-02"))
	fmt.Println(time.Date(2025, 13, 35, 25, 61, 0, 0, time.UTC))
	fmt.Println(t.Truncate(24*time.Hour), t.Round(time.Hour), t.Unix(), t.UnixMilli())
	fmt.Println(time.Unix(1700000000, 0).UTC(), time.UnixMilli(1700000000123).UTC().Format(time.StampMilli))
	fixed := time.FixedZone("IST", 5*3600+1800)
	fmt.Println(t.In(fixed), t.In(fixed).Format("2006-01-02 15:04 -07:00 MST"))
	fmt.Println(t.Equal(t.In(tokyo)), t == t.In(tokyo), t.Before(after), t.Compare(after))
	fmt.Println(t.Format("Monday, 2 January 2006 3:04:05.000 PM"), t.Month(), int(t.Month()))
}
