package sources

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/s3test"
	"github.com/stratahq/strata/e2e/strataproc"
	"github.com/stratahq/strata/projects/extensions/exttest"
)

// SQL blocks read Parquet and CSV from a real S3-compatible server
// (SeaweedFS) through an s3 secret, through the real binary; no output
// shows the key.
func TestRunReadsS3InASQLBlock(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	exttest.Require(t, "httpfs")
	srv := s3test.Start(t)
	srv.CreateBucket(t, "lake")
	srv.Put(t, "lake", "raw/customers.csv", []byte("id,country\n1,UK\n2,US\n3,UK\n"))
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	local := filepath.Join(t.TempDir(), "orders.parquet")
	if _, err := db.Exec(`COPY (SELECT i AS id, 1 + i % 3 AS customer_id, (i * 2.5)::DECIMAL(10,2) AS amount FROM range(1, 11) t(i)) TO '` + local + `' (FORMAT parquet)`); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(local)
	if err != nil {
		t.Fatal(err)
	}
	srv.Put(t, "lake", "orders/part-1.parquet", b)

	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	writeExtProject(t, dir, map[string]string{
		"strata.yaml": "name: lake\nextensions: [httpfs]\nsecrets:\n  lake:\n    kind: s3\n    key_id: {env: LAKE_KEY_ID}\n    secret: {env: LAKE_SECRET}\n" +
			"    endpoint: {env: LAKE_ENDPOINT}\n    region: us-east-1\n    url_style: path\n    use_ssl: false\n",
		"pipelines/lake.yaml": "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nblocks:\n  - id: revenue\n",
		"blocks/revenue.sql": "SELECT c.country, count(*) AS orders, sum(o.amount) AS revenue\n" +
			"FROM read_parquet('s3://lake/orders/*.parquet') o\n" +
			"JOIN read_csv('s3://lake/raw/customers.csv') c ON c.id = o.customer_id\n" +
			"GROUP BY ALL ORDER BY country\n",
	})
	env := []string{"LAKE_KEY_ID=" + srv.KeyID, "LAKE_SECRET=" + srv.Secret, "LAKE_ENDPOINT=" + srv.Endpoint}
	out, code := strataCmd(t, bin, env, "run", dir, "lake", "--partition", "2024-03-10")
	if code != 0 || !strings.Contains(out, "succeeded") {
		t.Fatalf("run: exit %d\n%s", code, out)
	}
	js, code := strataCmd(t, bin, env, "preview", dir, "lake", "revenue", "--partition", "2024-03-10", "--format", "json")
	var got struct {
		Preview struct {
			Rows [][]any `json:"rows"`
		} `json:"preview"`
	}
	if code != 0 || json.Unmarshal([]byte(js), &got) != nil {
		t.Fatalf("preview: %s", js)
	}
	rows, _ := json.Marshal(got.Preview.Rows)
	// customer_id 1 + i%3: ids 1 (i=3,6,9), 2 (1,4,7,10), 3 (2,5,8); UK = 1 and 3.
	if want := `[["2024-03-10","UK",6,"82.50"],["2024-03-10","US",4,"55.00"]]`; string(rows) != want {
		t.Fatalf("rows %s, want %s", rows, want)
	}
	// Without the secret's value the read is refused, and the error masks the key id.
	out, code = strataCmd(t, bin, []string{"LAKE_KEY_ID=" + srv.KeyID, "LAKE_SECRET=wrong-secret-value", "LAKE_ENDPOINT=" + srv.Endpoint},
		"run", dir, "lake", "--partition", "2024-03-11")
	if code == 0 || strings.Contains(out, srv.KeyID) || strings.Contains(out, "wrong-secret-value") {
		t.Fatalf("a wrong secret: exit %d, output shows a secret value or succeeded:\n%s", code, out)
	}
	for _, s := range []string{srv.Secret, srv.KeyID} {
		if strings.Contains(out+js, s) {
			t.Fatal("an output shows a secret value")
		}
	}
}
