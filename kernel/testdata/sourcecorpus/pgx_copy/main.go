package main

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Lands rows with COPY FROM (the fast path a destination uses) into a
// temporary table, then reads the totals back.
func main() {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "{{PG_DSN}}")
	if err != nil {
		fmt.Println("connect:", err)
		return
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE TEMP TABLE daily (day date, orders int, revenue numeric(12,2))"); err != nil {
		fmt.Println("create:", err)
		return
	}
	rows := [][]any{}
	for d := 1; d <= 5; d++ {
		rows = append(rows, []any{fmt.Sprintf("2024-03-%02d", d), d * 3, fmt.Sprintf("%d.%02d", d*100, d*7)})
	}
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"daily"}, []string{"day", "orders", "revenue"}, pgx.CopyFromRows(rows))
	if err != nil {
		fmt.Println("copy:", err)
		return
	}
	fmt.Println("copied", n)
	var orders int64
	var revenue string
	if err := conn.QueryRow(ctx, "SELECT sum(orders), sum(revenue)::text FROM daily").Scan(&orders, &revenue); err != nil {
		fmt.Println("sum:", err)
		return
	}
	fmt.Println("orders", orders, "revenue", revenue)
	var batch pgx.Batch
	batch.Queue("SELECT max(day)::text FROM daily")
	batch.Queue("SELECT count(*) FROM daily WHERE orders > $1", 6)
	br := conn.SendBatch(ctx, &batch)
	var last string
	var big int
	if err := br.QueryRow().Scan(&last); err != nil {
		fmt.Println("batch 1:", err)
	}
	if err := br.QueryRow().Scan(&big); err != nil {
		fmt.Println("batch 2:", err)
	}
	br.Close()
	fmt.Println("last day", last, "days over 6 orders", big)
}
