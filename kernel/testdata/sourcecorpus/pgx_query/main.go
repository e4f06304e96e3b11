package main

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

func main() {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "{{PG_DSN}}")
	if err != nil {
		fmt.Println("connect:", err)
		return
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT o.id, c.name, o.amount::text, o.created_at
		FROM orders o JOIN customers c ON c.id = o.customer_id
		WHERE o.created_at >= $1 AND o.created_at < $2 ORDER BY o.id`,
		time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC), time.Date(2024, 3, 11, 0, 0, 0, 0, time.UTC))
	if err != nil {
		fmt.Println("query:", err)
		return
	}
	type order struct {
		ID     int64
		Name   string
		Amount string
		At     time.Time
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (order, error) {
		var o order
		err := r.Scan(&o.ID, &o.Name, &o.Amount, &o.At)
		return o, err
	})
	if err != nil {
		fmt.Println("collect:", err)
		return
	}
	for _, o := range list {
		fmt.Printf("%d %-6s %8s %s\n", o.ID, o.Name, o.Amount, o.At.UTC().Format(time.RFC3339))
	}
	fmt.Println(len(list), "orders on 2024-03-10")
}
