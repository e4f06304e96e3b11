package main

import (
	"fmt"
	"time"
)

func main() {
	t := time.Date(2024, time.March, 10, 1, 30, 0, 0, time.UTC)
	fmt.Println(t.Format(time.RFC3339), t.Weekday(), t.YearDay())
	fmt.Println(t.Add(36 * time.Hour).Format("2006-01-02 15:04"))
	d := 90 * time.Minute
	fmt.Println(d, d.Hours(), time.Duration(1500)*time.Millisecond)
	p, err := time.Parse("2006-01-02", "2024-02-29")
	fmt.Println(p.Format("Jan 2, 2006"), err)
	fmt.Println(p.AddDate(1, 0, 0).Format("2006-01-02"))
	ny, _ := time.LoadLocation("America/New_York")
	fmt.Println(t.In(ny).Format("2006-01-02 15:04 MST"))
	a := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	fmt.Println(t.Sub(a), t.After(a), a.Truncate(24*time.Hour).Equal(a))
	dd, _ := time.ParseDuration("1h15m30s")
	fmt.Println(dd.Seconds(), dd.Round(time.Hour))
}
