package server

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// A reloaded page asks for its session's last output of each cell: a result
// with its preview and partition, a failed run with its position; a
// refused request does not replace what the cell showed.
func TestSessionOutputsSurviveReload(t *testing.T) {
	e := newEnv(t)
	c := e.connect()
	c.hello("reload-me")
	if final, _ := c.execute("raw_orders", loadSource, "2024-03-10", 30*time.Second); final.Type != MsgResult {
		t.Fatalf("raw_orders: %+v", final.Error)
	}
	broken := "SELECT no_such_column FROM raw_orders"
	if final, _ := c.execute("daily_customer_metrics", broken, "2024-03-10", 30*time.Second); final.Type != MsgError || final.Error.Code != WSRun {
		t.Fatalf("daily_customer_metrics: %+v", final.Error)
	}
	// Refused: not a run, so not an output.
	if final, _ := c.execute("daily_customer_metrics", broken, "not-a-day", 30*time.Second); final.Type != MsgError || final.Error.Code == WSRun {
		t.Fatalf("bad partition: %+v", final)
	}
	c.conn.Close() // the page goes away; its session stays for the reload

	var got struct {
		Outputs []cellOutputView `json:"outputs"`
	}
	e.call(http.MethodGet, "/api/v1/sessions/reload-me/outputs?pipeline=clv", nil, http.StatusOK, &got)
	if len(got.Outputs) != 2 {
		t.Fatalf("outputs %+v", got.Outputs)
	}
	failed, ok := got.Outputs[0], got.Outputs[1] // by block id
	if ok.Block != "raw_orders" || ok.Partition != "2024-03-10" || ok.Message.Type != MsgResult || ok.Message.Preview == nil ||
		ok.Message.Preview.RowCount == 0 || ok.At.IsZero() || time.Since(ok.At) < 0 {
		t.Fatalf("result %+v", ok)
	}
	if failed.Block != "daily_customer_metrics" || failed.Partition != "2024-03-10" || failed.Message.Type != MsgError || failed.Message.Error.Code != WSRun ||
		!strings.Contains(failed.Message.Error.Message, "no_such_column") {
		t.Fatalf("error %+v %+v", failed, failed.Message.Error)
	}

	// Another pipeline, an unknown session: nothing, not an error.
	e.call(http.MethodGet, "/api/v1/sessions/reload-me/outputs?pipeline=other", nil, http.StatusOK, &got)
	if len(got.Outputs) != 0 {
		t.Fatalf("other pipeline: %+v", got.Outputs)
	}
	e.call(http.MethodGet, "/api/v1/sessions/never-seen/outputs?pipeline=clv", nil, http.StatusOK, &got)
	if len(got.Outputs) != 0 {
		t.Fatalf("unknown session: %+v", got.Outputs)
	}
	e.call(http.MethodGet, "/api/v1/sessions/reload-me/outputs", nil, http.StatusBadRequest, nil)
}
