package main

import (
	"fmt"
	"time"
)

func main() {
	t := time.Date(2024, time.February, 28, 22, 45, 30, 123456789, time.UTC)
	fmt.Println(t)
	fmt.Println(t.Format(time.RFC3339), t.Format(time.RFC3339Nano))
	fmt.Println(t.Format("2006-01-02 15:04:05.000"), t.Format("Mon Jan _2 3:04PM"), t.Format("02/01/06"))
	fmt.Println(t.Format(time.Kitchen), t.Format("Monday, January 2, 2006"), t.Format(".999999 MST"))
	next := t.Add(26 * time.Hour)
	fmt.Println(next.Format(time.DateOnly), next.Weekday(), next.YearDay(), next.Day())
	fmt.Println(t.AddDate(0, 1, 1).Format(time.DateOnly), t.AddDate(1, 0, 1).Format(time.DateOnly))
	y, w := t.ISOWeek()
	fmt.Println(y, w)
	d := next.Sub(t)
	fmt.Println(d, d.Hours(), d.Minutes(), d.Round(time.Hour), d.Truncate(time.Hour*24))
	fmt.Println(t.Truncate(time.Hour).Format(time.TimeOnly), t.Round(time.Minute).Format(time.TimeOnly))
	fmt.Println(time.Duration(1500)*time.Microsecond, time.Duration(0), 90*time.Second, -3*time.Millisecond)
	fmt.Println(time.Duration(3661e9).String(), (2*time.Hour + 30*time.Minute).Minutes())

	loc := time.FixedZone("EST", -5*3600)
	tl := t.In(loc)
	fmt.Println(tl, tl.Format(time.RFC1123Z), tl.Equal(t), tl == t)
	_, off := tl.Zone()
	fmt.Println(off, tl.Location())

	p, err := time.Parse("2006-01-02 15:04", "2023-12-31 23:59")
	fmt.Println(p, err, p.Unix())
	_, err = time.Parse(time.DateOnly, "2023-02-30")
	fmt.Println(err)
	p2, _ := time.ParseInLocation("Jan 2 2006 15:04", "Mar 10 2024 02:30", loc)
	fmt.Println(p2.UTC())
	dd, err := time.ParseDuration("1h15m30.5s")
	fmt.Println(dd, err, dd.Seconds())
	_, err = time.ParseDuration("5 minutes")
	fmt.Println(err)

	days := []time.Time{
		time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2023, 12, 25, 0, 0, 0, 0, time.UTC),
		time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC),
	}
	earliest := days[0]
	for _, d := range days[1:] {
		if d.Before(earliest) {
			earliest = d
		}
	}
	fmt.Println(earliest.Format("Jan 2, 2006"), days[0].After(days[2]), days[0].Compare(days[1]))
	fmt.Println(time.Unix(1700000000, 0).UTC(), time.UnixMilli(1).UTC().Format(time.StampMilli))
	var zero time.Time
	fmt.Println(zero.IsZero(), zero.Year(), time.Month(13), time.Weekday(7))
	fmt.Println(t.Month() == time.February, int(t.Month()), t.Nanosecond())
}
