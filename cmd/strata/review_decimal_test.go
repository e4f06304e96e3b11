package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestReviewTotalsDecimalExactly: a review's total_within check over a
// DECIMAL column failed as "not numeric: it has no total" (the diff's column
// statistics summed only BIGINT and DOUBLE; a CLI retry that passed had
// staged the same content, so the check never looked at the column). The
// totals are exact: 5.0 → 5.5 is exactly the 10% allowed, which float64
// arithmetic reads as 10.000000000000009% and fails. Checked through the
// CLI and the API of the real server; the review's statistics carry the
// decimal's sum, mean and exact total.
func TestReviewTotalsDecimalExactly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	write := func(p, c string) {
		t.Helper()
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("strata.yaml", "name: dec\ntimezone: UTC\n")
	write("pipelines/money.yaml", `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: ledger
    key: [id]
checks:
  - name: amount_total
    product: ledger
    total_within: {column: amount, percent: 10}
`)
	block := func(first string) {
		write("blocks/ledger.sql", "SELECT * FROM (VALUES (1, "+first+"), (2, -95.0), (3, NULL)) t(id, amount)\n")
	}
	run := func(want int, args ...string) string {
		t.Helper()
		return runWant(t, bin, want, args...)
	}
	block("100.0")
	run(0, "backfill", dir, "money", "--from", "2024-01-01", "--to", "2024-01-01")

	// CLI: 5.0 → 5.5, +10% exactly.
	block("100.5")
	out := run(0, "backfill", dir, "money", "--from", "2024-01-01", "--to", "2024-01-01", "--reprocess", "all", "--publish", "review")
	if !strings.Contains(out, "check pass amount_total: total amount: current 5, staged 5.5 (+10.00%, allowed ±10%)") {
		t.Fatalf("CLI review of a DECIMAL total:\n%s", out)
	}

	// API: 5.0 → 5.6, +12%: fails, on its numbers, not on the type.
	block("100.6")
	srv := strataproc.Start(t, bin, dir, "0123456789abcdef-test")
	var st strataproc.Backfill
	srv.Call(t, http.MethodPost, "/backfills", `{"pipeline":"money","from":"2024-01-01","to":"2024-01-01","reprocess":"all","publish":"review"}`, &st)
	srv.WaitFor(t, st.ID, func(p strataproc.Progress) bool { return p.State == "review" || p.State == "failed" })
	var rv struct {
		Products []struct {
			Columns []struct {
				Name  string `json:"name"`
				Type  string `json:"type"`
				After *struct {
					Sum   *float64 `json:"sum"`
					Mean  *float64 `json:"mean"`
					Total *string  `json:"total"`
				} `json:"after"`
			} `json:"columns"`
		} `json:"products"`
		Gates []struct {
			Name   string `json:"name"`
			Passed bool   `json:"passed"`
			Detail string `json:"detail"`
		} `json:"gates"`
	}
	srv.Call(t, http.MethodGet, "/backfills/"+st.ID+"/review", "", &rv)
	if len(rv.Gates) != 1 || rv.Gates[0].Passed || rv.Gates[0].Detail != "total amount: current 5, staged 5.6 (+12.00%, allowed ±10%)" {
		t.Fatalf("API review gates: %+v", rv.Gates)
	}
	found := false
	for _, p := range rv.Products {
		for _, c := range p.Columns {
			if c.Name != "amount" {
				continue
			}
			found = true
			a := c.After
			if c.Type != "decimal" || a == nil || a.Sum == nil || *a.Sum != 5.6 || a.Mean == nil || *a.Mean != 2.8 || a.Total == nil || *a.Total != "5.6" {
				t.Fatalf("decimal column statistics: %+v %+v", c, a)
			}
		}
	}
	if !found {
		t.Fatalf("the review has no amount column: %+v", rv.Products)
	}
}
