package tableview

import (
	"fmt"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

func million(b *testing.B) *sdk.Table {
	b.Helper()
	t := sdk.NewTable(sdk.Int64("n"), sdk.Decimal("amount", 18, 1), sdk.String("name"))
	for i := 0; i < 1_000_000; i++ {
		var amount any = fmt.Sprintf("%d.%d", i/2, (i%2)*5)
		if i%10 == 0 {
			amount = nil
		}
		t.Append(i, amount, fmt.Sprintf("cust-%d", i%5000))
	}
	if err := t.Err(); err != nil {
		b.Fatal(err)
	}
	return t
}

// BenchmarkColumnFilter1M: the row order of a decimal column filter over
// 1,000,000 rows (what a typed filter box costs before the page is cut).
func BenchmarkColumnFilter1M(b *testing.B) {
	t := million(b)
	q := Query{Columns: []ColumnFilter{{"amount", ">=499990"}}}
	for b.Loop() {
		if n := len(Order(t, q, time.UTC)); n != 18 {
			b.Fatalf("%d rows", n)
		}
	}
}

// BenchmarkSummarize1M: the header summaries of 1,000,000 rows.
func BenchmarkSummarize1M(b *testing.B) {
	t := million(b)
	for b.Loop() {
		Summarize(t, time.UTC)
	}
}
