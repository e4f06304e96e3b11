package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/pgtest"
	"github.com/stratahq/strata/e2e/strataproc"
	"github.com/stratahq/strata/projects/extensions/exttest"
)

// A full run whose blocks use and print secrets (a Postgres URL from the
// environment, a token from a 0600 file): the SQL block ATTACHes with
// {{secret "pg"}}, a Go block reads both with ctx.Secret and prints, logs,
// returns and fails with them. Then every file under the project, every
// API response body, the CLI's output and the server's log are searched
// for the values: none holds one.
func TestSecretsNeverLeaveARun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	exttest.Require(t, "postgres")
	pg := pgtest.Start(t)
	pg.Psql(t, `CREATE TABLE orders (id int PRIMARY KEY, amount numeric(10,2), created_at timestamptz);
		INSERT INTO orders SELECT i, i * 2.5, timestamptz '2024-01-01 00:00Z' + i * interval '1 hour' FROM generate_series(0, 47) i`)
	const token = "tok-e2e-7f3a9c1d5b"
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("STRATA_TEST_PG_URL", pg.DSN())
	leaks := []string{pg.DSN(), pg.Password, token}

	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	writeExtProject(t, dir, map[string]string{
		"strata.yaml": "name: sec\nextensions: [postgres]\nsecrets:\n  pg: {env: STRATA_TEST_PG_URL}\n  token: {file: " + tokenFile + "}\n",
		"pipelines/shop.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: orders
    product: sec_orders
  - id: attached
    product: sec_attached
  - id: leak
    upstream: [orders]
    product: sec_leak
`,
		"blocks/orders.sql": "ATTACH '{{secret \"pg\"}}' AS src (TYPE postgres);\n" +
			"SELECT id, amount FROM src.public.orders WHERE created_at >= $partition_start AND created_at < $partition_end\n",
		// What DuckDB says about the attachment quotes the connection string.
		"blocks/attached.sql": "ATTACH '{{secret \"pg\"}}' AS src (TYPE postgres);\nSELECT database_name, path FROM duckdb_databases() WHERE database_name = 'src'\n",
		"blocks/leak/leak.go": `package leak

import (
	"fmt"
	"log"

	"github.com/stratahq/strata/blocks/sdk"
)

func Transform(ctx *sdk.Context, orders *sdk.Table) (*sdk.Table, error) {
	pg, err := ctx.Secret("pg")
	if err != nil {
		return nil, err
	}
	tok, err := ctx.Secret("token")
	if err != nil {
		return nil, err
	}
	fmt.Println("pg is", pg)
	log.Println("token is", tok)
	ctx.Log.Info("both", "pg", pg, "token", tok)
	t := sdk.NewTable(sdk.String("pg"), sdk.String("token"), sdk.Int64("orders"))
	t.Append(pg, "Bearer "+tok, int64(orders.Len()))
	return t, nil
}
`,
		"pipelines/fail.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: boom
    product: sec_boom
`,
		"blocks/boom/boom.go": `package boom

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	tok, _ := ctx.Secret("token")
	panic(fmt.Sprintf("cannot use %s", tok))
}
`,
	})

	var bodies, outputs []string
	// Compiled (the CLI's default when Go is installed).
	out, code := strataproc.Run(t, bin, "run", dir, "shop", "--partition", "2024-01-02")
	outputs = append(outputs, out)
	if code != 0 || !strings.Contains(out, "succeeded") || !strings.Contains(out, "pg is ***") {
		t.Fatalf("strata run shop: exit %d\n%s", code, out)
	}
	out, code = strataproc.Run(t, bin, "run", dir, "fail", "--partition", "2024-01-02")
	outputs = append(outputs, out)
	if code == 0 || !strings.Contains(out, "cannot use ***") {
		t.Fatalf("strata run fail: exit %d\n%s", code, out)
	}

	// Interpreted, through the server's API.
	srv := strataproc.Start(t, bin, dir, "secret-e2e-token-0123456789")
	call := func(method, path, body string) string {
		t.Helper()
		_, data, err := srv.Request(method, path, body)
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, string(data))
		return string(data)
	}
	run := call("POST", "/pipelines/shop/runs?wait=true", `{"partition": "2024-01-01", "engine": "interp"}`)
	if !strings.Contains(run, `"state":"succeeded"`) && !strings.Contains(run, `"state": "succeeded"`) {
		t.Fatalf("API run: %s", run)
	}
	call("POST", "/pipelines/fail/runs?wait=true", `{"partition": "2024-01-01", "engine": "interp"}`)
	runs := call("GET", "/runs?limit=100", "")
	for _, id := range runIDs(runs) {
		call("GET", "/runs/"+id, "")
	}
	for _, p := range []string{"sec_orders", "sec_attached", "sec_leak"} {
		call("GET", "/products/"+p+"/preview?partition=2024-01-01", "")
		call("GET", "/products/"+p+"/preview.csv?partition=2024-01-02", "")
	}
	call("GET", "/products", "")
	call("GET", "/pipelines/shop", "")
	call("GET", "/pipelines/shop/blocks/orders", "")
	call("GET", "/pipelines/shop/blocks/leak", "")
	call("GET", "/project/settings", "")
	if leak := call("GET", "/products/sec_leak/preview?partition=2024-01-01", ""); !strings.Contains(leak, "Bearer ***") {
		t.Fatalf("the leak block's output is not there, masked: %s", leak)
	}
	srv.Stop(t)
	if len(runIDs(runs)) != 4 {
		t.Fatalf("GET /runs lists %v, want the four runs", runIDs(runs))
	}

	for _, v := range leaks {
		for i, b := range bodies {
			if strings.Contains(b, v) {
				t.Errorf("API response %d holds a secret:\n%s", i, b)
			}
		}
		for _, o := range outputs {
			if strings.Contains(o, v) {
				t.Errorf("CLI output holds a secret:\n%s", o)
			}
		}
		if strings.Contains(srv.Stderr.String(), v) || strings.Contains(strings.Join(srv.Printed, "\n"), v) {
			t.Errorf("the server's log holds a secret:\n%s", srv.Stderr)
		}
	}
	files := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		for _, v := range leaks {
			if bytes.Contains(data, []byte(v)) {
				t.Errorf("%s holds a secret", p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 5 {
		t.Fatalf("searched only %d files", files)
	}
}

// runIDs picks the run ids out of a GET /runs body.
func runIDs(body string) []string {
	var ids []string
	for _, part := range strings.Split(body, `"run_id":"`)[1:] {
		if i := strings.IndexByte(part, '"'); i > 0 {
			ids = append(ids, part[:i])
		}
	}
	return ids
}
