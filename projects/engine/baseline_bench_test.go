package engine

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"math"
	"math/rand"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// baselineBackfill is the demo pipeline's work written as one plain Go
// program with duckdb-go, the floor Strata's overhead is measured against:
// per day (America/New_York) it generates the same orders as raw_orders,
// writes them, aggregates them in DuckDB as daily_customer_metrics does,
// computes clv, the segments and their stats and report in Go, and writes
// each, in one transaction per partition; each finished week gets its
// rollup. No versions, catalog, run state or kernels. With strataSettings
// DuckDB runs as Strata's backfills run it (the threads a partition gets,
// warehouse.ShareCores); without, with
// DuckDB's defaults, as a plain program would. Closing the database (and
// its checkpoint) is part of the run.
func baselineBackfill(tb testing.TB, dir string, days int, strataSettings bool) {
	ctx := context.Background()
	dsn := filepath.Join(dir, "baseline.duckdb")
	if strataSettings {
		dsn += fmt.Sprintf("?threads=%d", max(1, runtime.NumCPU()/demoConcurrency))
	}
	connector, err := duckdb.NewConnector(dsn, nil)
	if err != nil {
		tb.Fatal(err)
	}
	db := sql.OpenDB(connector)
	defer db.Close()
	for _, ddl := range []string{
		`CREATE TABLE raw_orders (day VARCHAR, order_id VARCHAR, customer_id BIGINT, ordered_at TIMESTAMPTZ, amount DOUBLE, channel VARCHAR, subscription BOOLEAN)`,
		`CREATE TABLE daily_customer_metrics (day VARCHAR, customer_id BIGINT, orders BIGINT, revenue DOUBLE, avg_order_value DOUBLE, subscriber BOOLEAN, first_order_at TIMESTAMPTZ, last_order_at TIMESTAMPTZ)`,
		`CREATE TABLE clv (day VARCHAR, customer_id BIGINT, clv DOUBLE, segment VARCHAR)`,
		`CREATE TABLE segment_report (day VARCHAR, segment VARCHAR, customers BIGINT, total_clv DOUBLE, share DOUBLE)`,
		`CREATE TABLE weekly_customer_rollup (week VARCHAR, customer_id BIGINT, orders BIGINT, revenue DOUBLE, active_days BIGINT)`,
	} {
		if _, err := db.ExecContext(ctx, ddl); err != nil {
			tb.Fatal(err)
		}
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close()
	exec := func(q string, args ...any) {
		if _, err := conn.ExecContext(ctx, q, args...); err != nil {
			tb.Fatal(err)
		}
	}
	appendRows := func(table string, rows [][]driver.Value) {
		err := conn.Raw(func(dc any) error {
			a, err := duckdb.NewAppender(dc.(driver.Conn), "", "", table)
			if err != nil {
				return err
			}
			for _, r := range rows {
				if err := a.AppendRow(r...); err != nil {
					_ = a.Close()
					return err
				}
			}
			return a.Close()
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	loc, _ := time.LoadLocation("America/New_York")
	first := time.Date(2020, 1, 1, 0, 0, 0, 0, loc)
	for d := 0; d < days; d++ {
		start := first.AddDate(0, 0, d)
		end := start.AddDate(0, 0, 1)
		key := start.Format("2006-01-02")
		exec("BEGIN TRANSACTION")
		appendRows("raw_orders", baselineOrders(key, start, end))
		exec(`INSERT INTO daily_customer_metrics SELECT day, customer_id, count(*), round(sum(amount), 2), round(avg(amount), 2),
			bool_or(subscription), min(ordered_at), max(ordered_at) FROM raw_orders WHERE day = ? AND ordered_at >= ? AND ordered_at < ?
			GROUP BY day, customer_id ORDER BY customer_id`, key, start, end)
		rows, err := conn.QueryContext(ctx, `SELECT customer_id, orders, avg_order_value, subscriber FROM daily_customer_metrics WHERE day = ? ORDER BY customer_id`, key)
		if err != nil {
			tb.Fatal(err)
		}
		var clvRows [][]driver.Value
		perSeg := map[string][]float64{}
		for rows.Next() {
			var id, orders int64
			var aov float64
			var sub bool
			if err := rows.Scan(&id, &orders, &aov, &sub); err != nil {
				tb.Fatal(err)
			}
			lifetime := 2.0
			if sub {
				lifetime = 4.5
			}
			v := math.Round(aov*(4.0+2.0*float64(orders))*0.32*lifetime*100) / 100
			seg := "occasional"
			if v >= 250 {
				seg = "vip"
			} else if v >= 100 {
				seg = "regular"
			}
			perSeg[seg] = append(perSeg[seg], v)
			clvRows = append(clvRows, []driver.Value{key, id, v, seg})
		}
		rows.Close()
		appendRows("clv", clvRows)
		segs := make([]string, 0, len(perSeg))
		sum := 0.0
		for s, vs := range perSeg {
			segs = append(segs, s)
			for _, v := range vs {
				sum += v
			}
		}
		sort.Strings(segs)
		var report [][]driver.Value
		for _, s := range segs {
			total := 0.0
			for _, v := range perSeg[s] {
				total += v
			}
			report = append(report, []driver.Value{key, s, int64(len(perSeg[s])), math.Round(total*100) / 100, math.Round(total/sum*10000) / 10000})
		}
		appendRows("segment_report", report)
		if end.Weekday() == time.Monday || d == days-1 { // the week (Monday first) ends: its rollup
			y, w := start.ISOWeek()
			exec(`INSERT INTO weekly_customer_rollup SELECT ?, customer_id, sum(orders), round(sum(revenue), 2), count(*)
				FROM daily_customer_metrics WHERE day >= ? AND day <= ? GROUP BY customer_id ORDER BY customer_id`,
				fmt.Sprintf("%d-W%02d", y, w), start.AddDate(0, 0, -int((start.Weekday()+6)%7)).Format("2006-01-02"), key)
		}
		exec("COMMIT")
	}
}

// baselineOrders is raw_orders' Load without the SDK.
func baselineOrders(key string, start, end time.Time) [][]driver.Value {
	epoch := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	day := int64(start.Sub(epoch.In(start.Location())).Hours() / 24)
	rng := rand.New(rand.NewSource(day*7919 + 17))
	customers := min(2000+int(day)*3, 8000)
	season := 1.0 + 0.25*math.Sin(2*math.Pi*float64(start.YearDay())/365.0)
	if wd := start.Weekday(); wd == time.Saturday || wd == time.Sunday {
		season *= 1.3
	}
	channels := []string{"web", "app", "store"}
	seconds := int64(end.Sub(start) / time.Second)
	var out [][]driver.Value
	n := 0
	for c := 0; c < customers; c++ {
		taste := float64((c*2654435761)%1000) / 1000.0
		if rng.Float64() > 0.15*season*(0.3+taste) {
			continue
		}
		n++
		at := start.Add(time.Duration(rng.Int63n(seconds)) * time.Second)
		amount := math.Round((12+taste*80)*(0.6+rng.Float64())*100) / 100
		out = append(out, []driver.Value{key, fmt.Sprintf("%s-%05d", key, n), int64(c), at, amount, channels[(c+n)%3], taste > 0.7})
	}
	return out
}
