package project

import (
	"strings"
	"testing"
)

func TestReviewChecksAndKeys(t *testing.T) {
	t.Parallel()
	files := with(sqlBlocks("a", "b"), map[string]string{"pipelines/p.yaml": lines(
		"blocks:",
		"  - id: a",
		"    key: [customer_id, day]",
		"  - id: b",
		"    upstream: [a]",
		"    product: metrics",
		"checks:",
		"  - name: total",
		"    product: a",
		"    total_within: {column: revenue, percent: 5}",
		"  - name: rows",
		"    product: metrics",
		"    max_row_loss_percent: 10%",
		"  - name: no_negative",
		"    sql: SELECT * FROM staged_metrics WHERE x < 0",
	)})
	p, probs := loadProject(t, writeProject(t, files))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	pl := p.Pipelines["p"]
	if got := strings.Join(pl.Blocks[0].Key, ","); got != "customer_id,day" {
		t.Fatalf("key %q", got)
	}
	if len(pl.Checks) != 3 || pl.Checks[0].Kind != CheckTotalWithin || pl.Checks[0].Column != "revenue" || pl.Checks[0].Percent != 5 ||
		pl.Checks[1].Percent != 10 || pl.Checks[1].Product != "metrics" || pl.Checks[2].Kind != CheckSQL {
		t.Fatalf("checks %+v", pl.Checks)
	}

	bad := with(sqlBlocks("a"), map[string]string{"pipelines/p.yaml": lines(
		"blocks:",
		"  - id: a",
		"checks:",
		"  - name: two",
		"    product: a",
		"    max_row_loss_percent: 10",
		"    sql: select 1",
		"  - name: nope",
		"    product: zz",
		"    max_row_loss_percent: 10",
		"  - name: neg",
		"    product: a",
		"    max_row_loss_percent: -3",
	)})
	_, probs = loadProject(t, writeProject(t, bad))
	msg := probs.Error()
	for _, want := range []string{
		`pipelines/p.yaml:4:5: checks[0]: check "two": want exactly one of total_within, max_row_loss_percent or sql`,
		`pipelines/p.yaml:9:14: checks[1].product: check "nope": no block "zz" in this pipeline`,
		`pipelines/p.yaml:13:27: checks[2].max_row_loss_percent: want a percent of 0 or more such as 5, got "-3"`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("problems lack %q:\n%s", want, msg)
		}
	}
}
