package main

import (
	"fmt"
	"time"
)

func main() {
	fmt.Println(90*time.Second, 1500*time.Millisecond, 36*time.Hour+time.Minute, time.Duration(0), 3*time.Microsecond)
	d, err := time.ParseDuration("1h15m30.5s")
	fmt.Println(d, err, d.Minutes(), d.Round(time.Minute), d.Truncate(time.Hour))
	t, err := time.Parse("2006-01-02 15:04:05", "2024-02-29 13:45:00")
	fmt.Println(t, err)
	fmt.Println(t.Format(time.RFC3339), t.Format("Mon Jan 2 3:04PM"), t.Format("02/01/06"))
	fmt.Println(t.Weekday(), t.YearDay(), t.AddDate(1, 0, 0).Format(time.DateOnly))
	loc := time.FixedZone("EST", -5*3600)
	fmt.Println(t.In(loc).Format(time.RFC1123Z))
	t2, err := time.Parse(time.RFC3339, "2024-03-10T08:00:00+02:00")
	fmt.Println(t2.UTC(), err, t2.Sub(t).Round(time.Hour))
	_, err = time.Parse(time.DateOnly, "2024-13-01")
	fmt.Println(err)
	ny, err := time.LoadLocation("America/New_York")
	if err == nil {
		fmt.Println(time.Date(2024, 7, 4, 12, 0, 0, 0, time.UTC).In(ny).Format("15:04 MST"))
	}
	start := time.Date(2024, 1, 31, 0, 0, 0, 0, time.UTC)
	fmt.Println(start.AddDate(0, 1, 0).Format(time.DateOnly), start.Truncate(24*time.Hour).Equal(start))
	fmt.Println(t.Unix(), time.Unix(0, 0).UTC(), t.Before(t2), t.Month(), int(t.Month()))
}
