package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/pgtest"
	"github.com/stratahq/strata/e2e/strataproc"
	"github.com/stratahq/strata/projects/extensions/exttest"
)

// A pipeline's SQL block ATTACHes a real Postgres and loads each day's
// orders with the partition bounds; a downstream SQL block aggregates them.
func TestRunReadsPostgresInASQLBlock(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	exttest.Require(t, "postgres")
	pg := pgtest.Start(t)
	pg.Psql(t, `CREATE TABLE orders (id int PRIMARY KEY, customer text, amount numeric(10,2), created_at timestamptz);
		INSERT INTO orders SELECT i, 'c' || (i % 3), i * 1.25, timestamptz '2024-01-01 00:00Z' + i * interval '1 hour' FROM generate_series(0, 71) i`)
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	writeExtProject(t, dir, map[string]string{
		"strata.yaml": "name: shop\nextensions: [postgres]\n",
		"pipelines/shop.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: orders
  - id: daily
    upstream: [orders]
`,
		"blocks/orders.sql": "ATTACH '" + pg.ConnString() + "' AS src (TYPE postgres);\n" +
			"SELECT id, customer, amount, created_at FROM src.public.orders\n" +
			"WHERE created_at >= $partition_start AND created_at < $partition_end\n",
		"blocks/daily.sql": "SELECT count(*) AS orders, sum(amount) AS revenue FROM orders\n",
	})
	for _, day := range []string{"2024-01-01", "2024-01-02"} {
		if out, code := strataproc.Run(t, bin, "run", dir, "shop", "--partition", day); code != 0 || !strings.Contains(out, "succeeded") {
			t.Fatalf("run %s: exit %d\n%s", day, code, out)
		}
	}
	out, code := strataproc.Run(t, bin, "preview", dir, "shop", "daily", "--partition", "2024-01-02", "--format", "json")
	if code != 0 {
		t.Fatalf("preview: exit %d\n%s", code, out)
	}
	var got struct {
		Preview struct {
			Rows [][]any `json:"rows"`
		} `json:"preview"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Preview.Rows) != 1 {
		t.Fatalf("preview json: %v\n%s", err, out)
	}
	// Hours 24..47: 24 orders, 1.25 * (24+...+47) = 1065.00, after the partition column.
	if row := got.Preview.Rows[0]; len(row) != 3 || row[1] != float64(24) || row[2] != "1065.00" {
		t.Fatalf("daily 2024-01-02 = %v, want [2024-01-02 24 1065.00]", row)
	}
}
