package main

import (
	"encoding/csv"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

type Order struct {
	ID       string
	Customer int64
	Amount   float64
	At       time.Time
}

type agg struct {
	n     int
	total float64
	first time.Time
}

func main() {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		panic(err)
	}
	raw := "id,customer,amount,at\no1,7,19.99,2024-03-10T01:30:00-05:00\no2,7,5.01,2024-03-10T03:30:00-04:00\no3,9,100,2024-03-09T23:59:59-05:00\no4,9,-3.5,2024-03-10T12:00:00Z\n"
	r := csv.NewReader(strings.NewReader(raw))
	recs, err := r.ReadAll()
	if err != nil {
		panic(err)
	}
	var orders []Order
	for _, rec := range recs[1:] {
		c, _ := strconv.ParseInt(rec[1], 10, 64)
		a, _ := strconv.ParseFloat(rec[2], 64)
		at, err := time.Parse(time.RFC3339, rec[3])
		if err != nil {
			panic(err)
		}
		orders = append(orders, Order{rec[0], c, a, at})
	}
	day := time.Date(2024, 3, 10, 0, 0, 0, 0, ny)
	next := day.AddDate(0, 0, 1)
	fmt.Println("day hours:", next.Sub(day), day.Weekday(), day.YearDay())
	byCust := map[int64]*agg{}
	for _, o := range orders {
		if o.At.Before(day) || !o.At.Before(next) {
			fmt.Println("outside:", o.ID, o.At.In(ny).Format("2006-01-02 15:04 MST"))
			continue
		}
		g := byCust[o.Customer]
		if g == nil {
			g = &agg{first: o.At}
			byCust[o.Customer] = g
		}
		g.n++
		g.total += o.Amount
		if o.At.Before(g.first) {
			g.first = o.At
		}
	}
	keys := make([]int64, 0, len(byCust))
	for k := range byCust {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	for _, k := range keys {
		g := byCust[k]
		fmt.Printf("%d n=%d total=%.2f round=%v first=%s\n", k, g.n, g.total, math.Round(g.total*100)/100, g.first.In(ny).Format(time.Kitchen))
	}
	f27, f29 := -2.7, 2.9
	fmt.Println(math.Floor(-2.5), math.Ceil(-2.5), math.Trunc(-2.7), int(f27), int64(f29), math.Round(2.5), math.RoundToEven(2.5))
	nan := math.NaN()
	_ = nan
	fmt.Println(nan == nan, math.IsNaN(nan), math.Inf(1) > math.MaxFloat64, math.MaxInt64, math.MinInt64)
	fmt.Println(0.1+0.2, 0.1+0.2 == 0.3, float32(0.1), 1e21, 1e20, 123456789.0)
	fmt.Println(strconv.FormatFloat(1234.5678, 'f', 2, 64), strconv.FormatFloat(0.000001234, 'e', 3, 64), fmt.Sprintf("%g %e %.3g", 1e-7, 12345.678, 12345.678))
	week := day.Truncate(24 * time.Hour)
	fmt.Println(week.UTC().Format(time.RFC3339), day.UTC().Format(time.RFC3339))
	iso, wk := day.ISOWeek()
	fmt.Println("iso", iso, wk, day.Month(), int(day.Month()), time.Month(13))
	d, _ := time.ParseDuration("1h15m30.5s")
	fmt.Println(d, d.Minutes(), d.Round(time.Minute), d.Truncate(time.Hour))
	t1 := time.Date(2024, 1, 31, 0, 0, 0, 0, time.UTC)
	fmt.Println(t1.AddDate(0, 1, 0).Format("2006-01-02"), t1.Unix(), t1.UnixMilli(), time.Unix(0, 0).UTC())
	var sb strings.Builder
	w := csv.NewWriter(&sb)
	w.Write([]string{"a,b", `q"uote`, "plain"})
	w.Flush()
	fmt.Print(sb.String())
	fmt.Println(strings.EqualFold("Straße", "STRASSE"), strings.ToUpper("straße"), strings.Title("hello world"))
}
