package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A SQL block whose upstream has no data for the partition is a request
// that cannot run (code "invalid", as docs/websocket.md documents), not a
// failure of the block's SQL.
func TestWSSQLWithoutUpstreamDataIsInvalid(t *testing.T) {
	e := newEnv(t)
	c := e.connect()
	c.hello("sql-missing")
	for _, tc := range []struct{ block, partition string }{
		{"daily_customer_metrics", "2021-01-01"},
		{"weekly_customer_rollup", "2021-W02"},
	} {
		src, err := os.ReadFile(filepath.Join(e.dir, "blocks", tc.block+".sql"))
		if err != nil {
			t.Fatal(err)
		}
		final, _ := c.execute(tc.block, string(src), tc.partition, 30*time.Second)
		if final.Type != MsgError || final.Error.Code != WSInvalid || !strings.Contains(final.Error.Message, "no data") {
			t.Errorf("%s %s: got %+v %+v", tc.block, tc.partition, final, final.Error)
		}
	}
}
