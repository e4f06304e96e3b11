package server

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// exactSource is a Go block whose output needs every exact type: dates and
// wall times that must not shift, an instant that must, integers beyond
// int64 and 2^53, DECIMAL(38,10); 250 rows so paging has work to do.
const exactSource = `package raw_orders

import (
	"fmt"
	"math/big"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("n"), sdk.Date("d"), sdk.Timestamp("wall"), sdk.Time("at"),
		sdk.Uint64("u"), sdk.Int128("h"), sdk.Decimal("amount", 38, 10))
	ny, _ := time.LoadLocation("America/New_York")
	huge, _ := new(big.Int).SetString("170141183460469231731687303715884105727", 10)
	for i := 0; i < 250; i++ {
		t.Append(i, time.Date(2024, 3, 10, 0, 0, 0, 0, ny), time.Date(2024, 3, 10, 2, 30, 0, 0, time.UTC),
			time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC), uint64(18446744073709551615)-uint64(i),
			new(big.Int).Sub(huge, big.NewInt(int64(i))), fmt.Sprintf("1234567890123456789012345678.%010d", (i*37)%250))
	}
	return t, t.Err()
}
`

func TestDraftPagesSortedOnTheServerAndExactCSV(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.connect()
	c.hello("sess-exact-1")
	final, _ := c.execute("raw_orders", exactSource, "2024-03-10", 60*time.Second)
	if final.Type != MsgResult {
		t.Fatalf("execute: %+v", final)
	}
	p := final.Preview
	if p.RowCount != 250 || len(p.Rows) != 100 {
		t.Fatalf("result preview: %d rows of %d", len(p.Rows), p.RowCount)
	}
	first := fmt.Sprint(p.Rows[0])
	want := "[0 2024-03-10 2024-03-10T02:30:00 2024-03-10T08:00:00-04:00 18446744073709551615 170141183460469231731687303715884105727 1234567890123456789012345678.0000000000]"
	if first != want {
		t.Fatalf("first row:\n got %s\nwant %s", first, want)
	}
	base := "/api/v1/sessions/sess-exact-1/drafts/clv/raw_orders/rows?partition=2024-03-10"
	var page struct {
		Offset  int `json:"offset"`
		Preview struct {
			Columns  []map[string]string `json:"columns"`
			Rows     [][]any             `json:"rows"`
			RowCount int                 `json:"row_count"`
		} `json:"preview"`
	}
	e.call(http.MethodGet, base+"&offset=200&limit=100&sort=amount:desc", nil, http.StatusOK, &page)
	if page.Preview.RowCount != 250 || len(page.Preview.Rows) != 50 || page.Offset != 200 {
		t.Fatalf("page past 200: %d rows of %d at %d", len(page.Preview.Rows), page.Preview.RowCount, page.Offset)
	}
	// amount:desc over all 250 rows: row 200 holds fraction 49 (249 … 0).
	if got := page.Preview.Rows[0][6]; got != "1234567890123456789012345678.0000000049" {
		t.Fatalf("row 201 of the sort: %v", got)
	}
	if page.Preview.Columns[6]["sql_type"] != "DECIMAL(38,10)" {
		t.Fatalf("columns %+v", page.Preview.Columns)
	}
	e.call(http.MethodGet, base+"&filter="+url.QueryEscape("…715884105720"), nil, http.StatusOK, &page)
	if page.Preview.RowCount != 0 {
		t.Fatalf("filter with no match: %d", page.Preview.RowCount)
	}
	e.call(http.MethodGet, base+"&filter=884105720", nil, http.StatusOK, &page)
	if page.Preview.RowCount != 1 || page.Preview.Rows[0][0] != float64(7) {
		t.Fatalf("filter on an int128's digits: %+v", page.Preview)
	}
	e.call(http.MethodGet, base+"&sort=nope", nil, http.StatusBadRequest, nil)
	e.call(http.MethodGet, "/api/v1/sessions/sess-exact-1/drafts/clv/raw_orders/rows?partition=2024-03-11", nil, http.StatusNotFound, nil)

	res, body := e.request(http.MethodGet, strings.Replace(base, "/rows?", "/rows.csv?", 1)+"&sort=n:desc", nil)
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: %d %s", res.StatusCode, body)
	}
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	if len(lines) != 251 || lines[0] != "n,d,wall,at,u,h,amount" {
		t.Fatalf("csv has %d lines, header %q", len(lines), lines[0])
	}
	if want := "0,2024-03-10,2024-03-10T02:30:00,2024-03-10T08:00:00-04:00,18446744073709551615,170141183460469231731687303715884105727,1234567890123456789012345678.0000000000"; lines[250] != want {
		t.Fatalf("last csv line (n:desc):\n got %s\nwant %s", lines[250], want)
	}
	// The export is token-checked like every API route.
	req, _ := http.NewRequest(http.MethodGet, e.url+strings.Replace(base, "/rows?", "/rows.csv?", 1), nil)
	anon, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	anon.Body.Close()
	if anon.StatusCode != http.StatusUnauthorized {
		t.Fatalf("csv without a token: %d", anon.StatusCode)
	}
}

// A stored product pages past 100 rows with DuckDB sorting the whole
// window, and exports all of it as CSV.
func TestProductPreviewPagesAndExports(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.call(http.MethodPost, "/api/v1/pipelines/clv/runs?wait=true", map[string]string{"partition": "2024-03-10"}, http.StatusOK, nil)
	type preview struct {
		Offset  int `json:"offset"`
		Preview struct {
			Columns  []map[string]string `json:"columns"`
			Rows     [][]any             `json:"rows"`
			RowCount int                 `json:"row_count"`
		} `json:"preview"`
	}
	var all, page preview
	e.call(http.MethodGet, "/api/v1/products/clv__raw_orders/preview?partition=2024-03-10&limit=10000&sort=amount:desc", nil, http.StatusOK, &all)
	n := all.Preview.RowCount
	if n <= 100 || len(all.Preview.Rows) != n {
		t.Fatalf("clv__raw_orders 2024-03-10 has %d rows (%d returned); the test needs more than 100", n, len(all.Preview.Rows))
	}
	e.call(http.MethodGet, "/api/v1/products/clv__raw_orders/preview?partition=2024-03-10&offset=100&limit=100&sort=amount:desc", nil, http.StatusOK, &page)
	if page.Offset != 100 || page.Preview.RowCount != n || len(page.Preview.Rows) != min(100, n-100) {
		t.Fatalf("page 2: offset %d, %d rows of %d", page.Offset, len(page.Preview.Rows), page.Preview.RowCount)
	}
	if fmt.Sprint(page.Preview.Rows[0]) != fmt.Sprint(all.Preview.Rows[100]) {
		t.Fatalf("row 101 differs between the page and the whole sorted window:\n%v\n%v", page.Preview.Rows[0], all.Preview.Rows[100])
	}
	res, body := e.request(http.MethodGet, "/api/v1/products/clv__raw_orders/preview.csv?partition=2024-03-10&sort=amount:desc", nil)
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	if res.StatusCode != http.StatusOK || len(lines) != n+1 || !strings.HasPrefix(lines[0], "_partition,") {
		t.Fatalf("csv: %d, %d lines for %d rows, header %q", res.StatusCode, len(lines), n, lines[0])
	}
}
