package main

import (
	"fmt"
	"time"
)

func workdaysBetween(a, b time.Time) int {
	n := 0
	for d := a; d.Before(b); d = d.AddDate(0, 0, 1) {
		if wd := d.Weekday(); wd != time.Saturday && wd != time.Sunday {
			n++
		}
	}
	return n
}

func main() {
	start := time.Date(2024, time.January, 31, 9, 30, 0, 0, time.UTC)
	fmt.Println(start.Format("2006-01-02 Mon 15:04"))
	fmt.Println("+1 month:", start.AddDate(0, 1, 0).Format("2006-01-02"))
	fmt.Println("+1 year:", time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC).AddDate(1, 0, 0).Format("Jan 2 2006"))
	end := time.Date(2024, time.March, 15, 17, 0, 0, 0, time.UTC)
	d := end.Sub(start)
	fmt.Println("diff", d, d.Hours(), int(d.Hours()/24), "days")
	fmt.Println("workdays", workdaysBetween(start, end))
	fmt.Println("yearday", end.YearDay(), "week")
	y, w := end.ISOWeek()
	fmt.Println(y, w)

	t := time.Date(2024, 5, 17, 13, 47, 31, 500_000_000, time.UTC)
	fmt.Println(t.Truncate(time.Hour).Format(time.RFC3339), t.Round(time.Minute).Format(time.TimeOnly))
	fmt.Println(t.Truncate(24 * time.Hour).Format(time.DateTime))

	durs := []string{"1h30m", "90s", "2h45m30.5s", "-15m", "1.5h"}
	var total time.Duration
	for _, s := range durs {
		dd, err := time.ParseDuration(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		total += dd
		fmt.Printf("%-12s %10v %8.2fm\n", s, dd, dd.Minutes())
	}
	fmt.Println("total", total, total.Round(time.Minute), total.Truncate(time.Hour))
	_, err := time.ParseDuration("3 days")
	fmt.Println(err)

	loc := time.FixedZone("UTC+5:30", 5*3600+1800)
	fmt.Println(t.In(loc).Format("2006-01-02 15:04 MST -07:00"))
	a := time.Date(2024, 12, 31, 23, 0, 0, 0, time.UTC)
	b := a.In(loc)
	fmt.Println(a.Equal(b), a == b, b.Day(), b.Month(), b.Year())
	deadline := a.Add(36 * time.Hour)
	fmt.Println(deadline.After(a), deadline.Weekday(), deadline.Unix())
	fmt.Println(time.Unix(1700000000, 0).UTC().Format(time.RFC1123))
}
