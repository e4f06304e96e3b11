package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// An incremental source through the real binary: the block selects the
// rows of a table (a CSV file DuckDB reads) after its cursor, and moves
// the cursor; `strata run` twice reads each row once, in either engine.
const cursorPipeline = `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
variables: {source: "%s"}
blocks:
  - id: orders
`

const cursorBlock = `package orders

import (
	"strconv"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	last, _ := strconv.ParseInt(ctx.State().Get("last_id"), 10, 64)
	t, err := ctx.Query("SELECT id, item FROM read_csv(?, header = true, columns = {'id': 'BIGINT', 'item': 'VARCHAR'}) WHERE id > ? ORDER BY id",
		ctx.Var("source", ""), last)
	if err != nil {
		return nil, err
	}
	if ids := t.Column("id").Int64s(); len(ids) > 0 {
		ctx.State().Set("last_id", strconv.FormatInt(ids[len(ids)-1], 10))
	}
	ctx.Log.Info("read after cursor", "last_id", last, "rows", t.Len())
	return t, nil
}
`

func TestRunReadsAfterCursor(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	for _, engine := range []string{"interp", "compiled"} {
		t.Run(engine, func(t *testing.T) {
			if engine == "compiled" {
				if _, err := exec.LookPath("go"); err != nil {
					t.Skip("no Go toolchain")
				}
			}
			dir := filepath.Join(t.TempDir(), "proj")
			run := func(args ...string) string {
				t.Helper()
				out, err := exec.Command(bin, args...).CombinedOutput()
				if err != nil {
					t.Fatalf("strata %s: %v\n%s", strings.Join(args, " "), err, out)
				}
				return string(out)
			}
			run("init", dir)
			src := filepath.Join(t.TempDir(), "orders.csv")
			write := func(p, s string) {
				t.Helper()
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(filepath.Join(dir, "pipelines", "inc.yaml"), strings.Replace(cursorPipeline, "%s", src, 1))
			write(filepath.Join(dir, "blocks", "orders", "orders.go"), cursorBlock)
			write(src, "id,item\n1,a\n2,b\n3,c\n")
			out := run("run", dir, "inc", "--partition", "2024-01-01", "--engine", engine)
			if !strings.Contains(out, "last_id=0 rows=3") {
				t.Fatalf("first run did not read 3 rows from cursor 0:\n%s", out)
			}
			write(src, "id,item\n1,a\n2,b\n3,c\n4,d\n5,e\n")
			out = run("run", dir, "inc", "--partition", "2024-01-02", "--engine", engine)
			if !strings.Contains(out, "last_id=3 rows=2") {
				t.Fatalf("second run did not read 2 rows after cursor 3:\n%s", out)
			}
			var got struct {
				Preview struct {
					RowCount int `json:"row_count"`
				} `json:"preview"`
			}
			js := run("preview", dir, "inc", "orders", "--partition", "2024-01-02", "--format", "json")
			if err := json.Unmarshal([]byte(js), &got); err != nil || got.Preview.RowCount != 2 {
				t.Fatalf("preview of the second partition: %v %+v\n%s", err, got, js)
			}
			out = run("run", dir, "inc", "--partition", "2024-01-03", "--engine", engine)
			if !strings.Contains(out, "last_id=5 rows=0") {
				t.Fatalf("third run did not start from cursor 5:\n%s", out)
			}
		})
	}
}
