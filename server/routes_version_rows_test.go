package server

import (
	"bytes"
	"context"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/blocks/sdk/sdktest"
	"github.com/stratahq/strata/projects/warehouse"
)

// TestVersionRowsExact: GET /products/:name/rows gives a stored version in
// sdktest's wire with every value exact (2^53+1, int128, decimals, instants,
// empty string vs NULL): what `strata test --read` prints from the file.
func TestVersionRowsExact(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	in := sdk.NewTable(sdk.Int64("i"), sdk.Float64("f"), sdk.String("s"), sdk.Time("t"), sdk.Decimal("d", 38, 10), sdk.Int128("h"))
	huge, _ := new(big.Int).SetString("170141183460469231731687303715884105727", 10)
	in.Append(int64(9007199254740993), 0.1, "", time.Date(2024, 3, 10, 1, 2, 3, 4000, time.UTC), "1234567890123456789012345678.0000000049", huge)
	in.Append(nil, nil, nil, nil, nil, nil)
	start := time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)
	publish := func(tb *sdk.Table) {
		t.Helper()
		if _, err := e.wh.Publish(ctx, []warehouse.Output{{Product: "exact_rows", Partition: "2024-03-10", PartitionStart: start,
			PartitionEnd: start.AddDate(0, 0, 1), Table: tb, RunID: "r1", CodeHash: "c"}}); err != nil {
			t.Fatal(err)
		}
	}
	publish(in)
	later := sdk.NewTable(sdk.Int64("i"), sdk.Float64("f"), sdk.String("s"), sdk.Time("t"), sdk.Decimal("d", 38, 10), sdk.Int128("h"))
	later.Append(int64(1), 1.0, "x", start, "1", big.NewInt(1))
	publish(later)

	read := func(version int) []byte {
		t.Helper()
		tb, err := e.wh.Read(ctx, "exact_rows", warehouse.Selection{Partitions: []string{"2024-03-10"}, Version: version}, -1)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := sdktest.WriteJSON(&b, DropPartitionColumn(tb)); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	got := e.call(http.MethodGet, "/api/v1/products/exact_rows/rows?partition=2024-03-10&version=1", nil, http.StatusOK, nil)
	if !bytes.Equal(got, read(1)) {
		t.Fatalf("version 1 over the API:\n%s\nfrom the warehouse:\n%s", got, read(1))
	}
	out, err := sdktest.ReadJSON(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	if d := sdktest.Diff(out, in); d != "" {
		t.Fatalf("version 1 is not what was published:\n%s", d)
	}
	// No version: the current one.
	if cur := e.call(http.MethodGet, "/api/v1/products/exact_rows/rows?partition=2024-03-10", nil, http.StatusOK, nil); !bytes.Equal(cur, read(2)) {
		t.Fatalf("current version over the API:\n%s", cur)
	}

	for _, c := range []struct {
		path, want string
		code       int
	}{
		{"/api/v1/products/exact_rows/rows", "partition", http.StatusBadRequest},
		{"/api/v1/products/exact_rows/rows?partition=2024-03-10&version=-1", "version", http.StatusBadRequest},
		{"/api/v1/products/exact_rows/rows?partition=2024-03-10&version=x", "version", http.StatusBadRequest},
		{"/api/v1/products/exact_rows/rows?partition=2024-03-10&version=7", "7", http.StatusNotFound},
		{"/api/v1/products/exact_rows/rows?partition=2024-03-11", "2024-03-11", http.StatusNotFound},
		{"/api/v1/products/no_such/rows?partition=2024-03-10", "no_such", http.StatusNotFound},
	} {
		if body := e.call(http.MethodGet, c.path, nil, c.code, nil); !strings.Contains(string(body), c.want) {
			t.Errorf("%s: %s lacks %q", c.path, body, c.want)
		}
	}
}
