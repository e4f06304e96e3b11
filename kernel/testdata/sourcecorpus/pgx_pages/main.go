package main

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Reads orders after a cursor, a page at a time, as an incremental source
// does: each page starts after the last id of the one before.
func main() {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, "{{PG_DSN}}")
	if err != nil {
		fmt.Println("pool:", err)
		return
	}
	defer pool.Close()
	cursor, page := int64(0), 0
	for {
		rows, err := pool.Query(ctx, "SELECT id, amount::float8 FROM orders WHERE id > $1 ORDER BY id LIMIT 4", cursor)
		if err != nil {
			fmt.Println("query:", err)
			return
		}
		n, sum := 0, 0.0
		for rows.Next() {
			var id int64
			var amount float64
			if err := rows.Scan(&id, &amount); err != nil {
				fmt.Println("scan:", err)
				return
			}
			cursor, n, sum = id, n+1, sum+amount
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			fmt.Println("rows:", err)
			return
		}
		if n == 0 {
			break
		}
		page++
		fmt.Printf("page %d: %d rows, sum %.2f, cursor now %d\n", page, n, sum, cursor)
	}
	fmt.Println("pages:", page, "last cursor:", cursor)
}
