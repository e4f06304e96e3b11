package sources

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/strataproc"
)

const exportKillPipeline = `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
variables: {out: "%s", hold: "2024-01-03"}
blocks:
  - id: sales
  - id: lake
    upstream: [sales]
`

const exportKillSales = `package sales

import "github.com/stratahq/strata/blocks/sdk"

// One row per day of the month: 2024-01-03 has 3 rows.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("n"), sdk.String("day"))
	for i := 0; i < ctx.Partition.Start.Day(); i++ {
		t.Append(int64(i), ctx.Partition.Key)
	}
	return t, nil
}
`

// The export writes its Parquet (the side effect), logs the key it wrote
// under, and then, for the held partition, waits for the file "go": the
// trial kills the server there, after the side effect and before the ledger
// records the export complete.
const exportKillLake = `package lake

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

func Export(ctx *sdk.Context, sales *sdk.Table) error {
	out := ctx.Var("out", "")
	if _, err := ctx.ExportParquet(filepath.Join(out, "lake")); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(out, "exports.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	fmt.Fprintf(f, "%s %s\n", ctx.Partition.Key, ctx.ExportKey())
	f.Close()
	if ctx.Partition.Key != ctx.Var("hold", "") {
		return nil
	}
	if err := os.WriteFile(filepath.Join(out, "written"), nil, 0o644); err != nil {
		return err
	}
	for {
		if _, err := os.Stat(filepath.Join(out, "go")); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}
`

// TestKillMidExport: kill -9 of the server while an Export block is past
// its side effect (the Parquet is written) and before the export ledger
// records it complete. After the restart the backfill resumes: the export
// that was cut runs again under the same key and replaces its file, the
// exports completed before the kill never run again, and the lake holds
// each partition's rows exactly once.
func TestKillMidExport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	out := t.TempDir()
	if o, code := strataproc.Run(t, bin, "init", dir); code != 0 {
		t.Fatal(o)
	}
	for p, c := range map[string]string{
		"pipelines/ex.yaml":     fmt.Sprintf(exportKillPipeline, out),
		"blocks/sales/sales.go": exportKillSales,
		"blocks/lake/lake.go":   exportKillLake,
	} {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := strataproc.Start(t, bin, dir, token)
	var launched struct {
		ID string `json:"id"`
	}
	srv.Call(t, http.MethodPost, "/backfills", `{"pipeline":"ex","from":"2024-01-01","to":"2024-01-05","publish":"partition","concurrency":1}`, &launched)
	deadline := time.Now().Add(3 * time.Minute)
	for {
		if _, err := os.Stat(filepath.Join(out, "written")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the held export never wrote its file; server:\n%s", srv.Stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	srv.Kill()

	// What the ledger says was complete when the server died.
	w, err := openWarehouse(dir)
	if err != nil {
		t.Fatal(err)
	}
	done := map[string]bool{}
	rows, err := w.db.Query(`SELECT partition FROM _strata.exports WHERE completed_at IS NOT NULL`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			t.Fatal(err)
		}
		done[p] = true
	}
	rows.Close()
	w.close()
	if done["2024-01-03"] {
		t.Fatal("the held export is recorded complete before it returned")
	}

	if err := os.WriteFile(filepath.Join(out, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	srv = strataproc.Start(t, bin, dir, token)
	st := srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.State != "running" })
	srv.Stop(t)
	if st.State != "succeeded" {
		t.Fatalf("after the restart: %s %q %+v", st.State, st.Message, st.Progress)
	}

	assertExportedOnce(t, dir, out, done)
}

// assertExportedOnce checks the destination after a kill mid-export and the
// recovery: every partition exported under one key, those complete before
// the kill (done) exported once, the held one (2024-01-03) twice under its
// key, the lake holding each partition's rows once and the ledger one
// completed export per partition.
func assertExportedOnce(t *testing.T, dir, out string, done map[string]bool) {
	t.Helper()
	// The export log: per partition, the keys its export ran under.
	keys := map[string][]string{}
	f, err := os.Open(filepath.Join(out, "exports.log"))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p, k, _ := strings.Cut(sc.Text(), " ")
		keys[p] = append(keys[p], k)
	}
	f.Close()
	days := []string{"2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05"}
	for _, d := range days {
		ks := keys[d]
		switch {
		case len(ks) == 0:
			t.Errorf("%s: never exported", d)
		case done[d] && len(ks) != 1:
			t.Errorf("%s: complete before the kill, exported again: %v", d, ks)
		}
		for _, k := range ks {
			if k != ks[0] {
				t.Errorf("%s: exported under two keys %v: a retry must keep its key", d, ks)
				break
			}
		}
	}
	if len(keys["2024-01-03"]) != 2 {
		t.Errorf("the cut export ran %d times, want twice (cut, then repeated under its key)", len(keys["2024-01-03"]))
	}

	// The lake: each partition's rows once, no temporary files.
	w, err := openWarehouse(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	lake := filepath.Join(out, "lake")
	var files []string
	_ = filepath.Walk(lake, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			rel, _ := filepath.Rel(lake, p)
			files = append(files, rel)
		}
		return nil
	})
	if len(files) != len(days) {
		t.Errorf("lake files %v: want one per partition, no temporary ones", files)
	}
	for i, d := range days {
		var n, distinct int
		if err := w.db.QueryRow(`SELECT count(*), count(DISTINCT n) FROM read_parquet(?) WHERE day = ?`,
			filepath.Join(lake, "day="+d, "data.parquet"), d).Scan(&n, &distinct); err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if n != i+1 || distinct != n {
			t.Errorf("%s: %d rows (%d distinct) in the lake, want %d once", d, n, distinct, i+1)
		}
	}
	var completed, parts int
	if err := w.db.QueryRow(`SELECT count(*), count(DISTINCT partition) FROM _strata.exports WHERE completed_at IS NOT NULL`).Scan(&completed, &parts); err != nil {
		t.Fatal(err)
	}
	if completed != len(days) || parts != len(days) {
		t.Errorf("ledger: %d completed exports over %d partitions, want one each of %d", completed, parts, len(days))
	}
}
