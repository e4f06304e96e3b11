package server

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestDraftColumnFiltersAndSummary: the result grid's per-column filters
// apply to the whole output on the server (with the row filter and the
// sort), and the header summary reads every row once.
func TestDraftColumnFiltersAndSummary(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.connect()
	c.hello("sess-cols-1")
	if final, _ := c.execute("raw_orders", exactSource, "2024-03-10", 60*time.Second); final.Type != MsgResult {
		t.Fatalf("execute: %+v", final)
	}
	base := "/api/v1/sessions/sess-cols-1/drafts/clv/raw_orders/rows?partition=2024-03-10"
	var page struct {
		Preview struct {
			Rows     [][]any `json:"rows"`
			RowCount int     `json:"row_count"`
		} `json:"preview"`
	}
	cols := func(m string) string { return base + "&columns=" + url.QueryEscape(m) }
	e.call(http.MethodGet, cols(`{"n": ">=240", "amount": "<1234567890123456789012345678.0000000100"}`)+"&sort=n:desc", nil, http.StatusOK, &page)
	// n in 240..249 whose fraction (n*37)%250 is under 100: 240→130, 241→167, 242→204, 243→241, 244→28, 245→65, 246→102, 247→139, 248→176, 249→213.
	if page.Preview.RowCount != 2 || page.Preview.Rows[0][0] != float64(245) || page.Preview.Rows[1][0] != float64(244) {
		t.Fatalf("two column filters: %+v", page.Preview)
	}
	e.call(http.MethodGet, cols(`{"u": ">18446744073709551610"}`), nil, http.StatusOK, &page)
	if page.Preview.RowCount != 5 {
		t.Fatalf("uint64 beyond int64: %d rows", page.Preview.RowCount)
	}
	data := e.call(http.MethodGet, cols(`{"n": ">many"}`), nil, http.StatusBadRequest, nil)
	if ae := apiError(t, data); !strings.Contains(ae.Message, `filter on n: "many" is not a number`) {
		t.Fatalf("a bad value: %+v", ae)
	}
	data = e.call(http.MethodGet, cols(`{"nope": "1"}`), nil, http.StatusBadRequest, nil)
	if ae := apiError(t, data); !strings.Contains(ae.Message, `"nope", which is not in the result`) {
		t.Fatalf("an unknown column: %+v", ae)
	}
	e.call(http.MethodGet, base+"&columns=%7Bnot-json", nil, http.StatusBadRequest, nil)

	var sum struct {
		Draft   struct{ Rows int }
		Columns []struct {
			Name, Type, Min, Max string
			Nulls, Distinct      int
		}
	}
	e.call(http.MethodGet, strings.Replace(base, "/rows?", "/summary?", 1), nil, http.StatusOK, &sum)
	if sum.Draft.Rows != 250 || len(sum.Columns) != 7 {
		t.Fatalf("summary: %+v", sum)
	}
	n, h := sum.Columns[0], sum.Columns[5]
	if n.Name != "n" || n.Type != "int64" || n.Min != "0" || n.Max != "249" || n.Nulls != 0 {
		t.Fatalf("n: %+v", n)
	}
	if h.Max != "170141183460469231731687303715884105727" || h.Min != "170141183460469231731687303715884105478" {
		t.Fatalf("int128 min/max exact: %+v", h)
	}
	if at := sum.Columns[3]; at.Min != "2024-03-10T08:00:00-04:00" {
		t.Fatalf("an instant in the partition's zone: %+v", at)
	}
	e.call(http.MethodGet, "/api/v1/sessions/sess-cols-1/drafts/clv/raw_orders/summary?partition=2024-03-11", nil, http.StatusNotFound, nil)
}

// TestProductPreviewColumnFilters: the same filters on a stored product,
// where DuckDB applies them.
func TestProductPreviewColumnFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.call(http.MethodPost, "/api/v1/pipelines/clv/runs?wait=true", map[string]string{"partition": "2024-03-10"}, http.StatusOK, nil)
	var all, some struct {
		Preview struct {
			RowCount int `json:"row_count"`
		} `json:"preview"`
	}
	base := "/api/v1/products/clv__raw_orders/preview?partition=2024-03-10"
	e.call(http.MethodGet, base, nil, http.StatusOK, &all)
	e.call(http.MethodGet, base+"&columns="+url.QueryEscape(`{"amount": ">50"}`), nil, http.StatusOK, &some)
	if some.Preview.RowCount == 0 || some.Preview.RowCount >= all.Preview.RowCount {
		t.Fatalf("amount > 50: %d of %d rows", some.Preview.RowCount, all.Preview.RowCount)
	}
	e.call(http.MethodGet, base+"&columns="+url.QueryEscape(`{"amount": "null"}`), nil, http.StatusOK, &some)
	if some.Preview.RowCount != 0 {
		t.Fatalf("amount null: %d", some.Preview.RowCount)
	}
	data := e.call(http.MethodGet, base+"&columns="+url.QueryEscape(`{"amount": ">lots"}`), nil, http.StatusBadRequest, nil)
	if ae := apiError(t, data); !strings.Contains(ae.Message, "column filter") {
		t.Fatalf("a bad value: %+v", ae)
	}
}
