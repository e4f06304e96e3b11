package main

import (
	"fmt"
	"time"
)

func main() {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		fmt.Println(err)
		return
	}
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	t := time.Date(2024, time.March, 10, 1, 30, 0, 0, ny)
	fmt.Println(t, t.Add(time.Hour), t.Add(time.Hour).Sub(t))
	fmt.Println(t.In(tokyo).Format(time.RFC3339), t.UTC().Format(time.RFC1123))
	fmt.Println(t.Format("Mon Jan 2 15:04:05 MST 2006"), t.Format("2006-01-02T15:04:05.000Z07:00"), t.Format(time.Kitchen))
	_, off := t.Zone()
	name, off2 := t.Add(2 * time.Hour).Zone()
	fmt.Println(off, name, off2)

	p, err := time.Parse(time.RFC3339, "2024-11-03T01:30:00-04:00")
	fmt.Println(p, err, p.In(ny))
	q, err := time.ParseInLocation("2006-01-02 15:04", "2024-11-03 01:30", ny)
	fmt.Println(q, err)
	_, err = time.Parse("2006-01-02", "2024-02-30")
	fmt.Println(err)
	day := time.Date(2024, 11, 3, 0, 0, 0, 0, ny)
	fmt.Println(day.AddDate(0, 0, 1).Sub(day))
	fmt.Println(time.Date(2024, 1, 31, 0, 0, 0, 0, time.UTC).AddDate(0, 1, 0).Format("2006-01-02"))
	fmt.Println(time.Date(2023, 12, 32, 25, 61, 0, 0, time.UTC))
	y, w := time.Date(2024, 12, 30, 0, 0, 0, 0, time.UTC).ISOWeek()
	fmt.Println(y, w, time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC).YearDay(), time.Date(2024, 7, 4, 0, 0, 0, 0, time.UTC).Weekday())
	d := 90*time.Minute + 30*time.Second + 5*time.Millisecond
	fmt.Println(d, d.Round(time.Minute), d.Truncate(time.Hour), d.Hours(), time.Duration(1500)*time.Microsecond)
	pd, err := time.ParseDuration("1h15m30.5s")
	fmt.Println(pd, err, pd.Seconds())
	ts := time.Date(2024, 5, 6, 7, 8, 9, 987654321, time.UTC)
	fmt.Println(ts.Truncate(time.Hour), ts.Round(time.Second), ts.UnixMilli(), time.Unix(1700000000, 0).UTC())
	fixed := time.FixedZone("X+0530", 5*3600+1800)
	fmt.Println(ts.In(fixed).Format(time.RFC822Z), ts.Equal(ts.In(fixed)), ts.Before(ts.Add(1)))
}
