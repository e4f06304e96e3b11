package server

import (
	"testing"
	"time"
)

// A SQL cell's error is marked at its line, as a Go cell's is: DuckDB's
// "LINE n:" is the cell's line (the cell's text is the query as written).
func TestWSSQLErrorHasPosition(t *testing.T) {
	e := newEnv(t)
	c := e.connect()
	c.hello("sql-error")
	if final, _ := c.execute("raw_orders", loadSource, "2024-03-10", 30*time.Second); final.Type != MsgResult {
		t.Fatalf("raw_orders: %+v", final.Error)
	}
	src := "SELECT key,\n       no_such_column\nFROM raw_orders"
	final, _ := c.execute("daily_customer_metrics", src, "2024-03-10", 30*time.Second)
	if final.Type != MsgError || final.Error.Code != WSRun {
		t.Fatalf("got %+v %+v", final, final.Error)
	}
	if final.Error.Line != 2 || final.Error.Column != 8 || final.Error.File != "blocks/daily_customer_metrics.sql" {
		t.Fatalf("position %s:%d:%d, want blocks/daily_customer_metrics.sql:2:8 (%s)", final.Error.File, final.Error.Line, final.Error.Column, final.Error.Message)
	}
}
