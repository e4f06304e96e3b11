package sdk

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestAppendConvertsAndRecordsErrors(t *testing.T) {
	t.Parallel()
	tb := NewTable(Int64("id"), Float64("amount"), String("name"), Bool("ok"), Time("at"))
	at := time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)
	tb.Append(1, 2, "a", true, at) // int -> int64, int -> float64
	tb.Append(int32(2), float32(1.5), nil, nil, nil)
	if err := tb.Validate(); err != nil || tb.Len() != 2 {
		t.Fatalf("valid rows: %v, len %d", err, tb.Len())
	}
	if !tb.Column("name").IsNull(1) || tb.Column("name").IsNull(0) || tb.Column("amount").Float64s()[0] != 2 {
		t.Fatal("nulls or conversions wrong")
	}
	tb.Append("three", 1.0, "c", false, at)
	tb.Append(4, 1.0, "d", false, at) // ignored after the first error
	err := tb.Err()
	if err == nil || !strings.Contains(err.Error(), `row 2: column "id" is int64, got string`) || tb.Len() != 2 {
		t.Fatalf("want a sticky error naming row and column, got %v (len %d)", err, tb.Len())
	}
	short := NewTable(Int64("a"), Int64("b"))
	short.Append(1)
	if short.Err() == nil || !strings.Contains(short.Err().Error(), "got 1 values, want 2 (a int64, b int64)") {
		t.Fatalf("arity error: %v", short.Err())
	}
}

func TestColumnsStayRectangularAfterAFailedRow(t *testing.T) {
	t.Parallel()
	tb := NewTable(Int64("a"), String("b"))
	tb.Append(1, "x")
	tb.Append(2, 3) // second column fails: the first must be undone
	if tb.Column("a").Len() != 1 || tb.Column("b").Len() != 1 {
		t.Fatalf("columns of unequal length: %d, %d", tb.Column("a").Len(), tb.Column("b").Len())
	}
}

func TestDuplicateColumnIsAnError(t *testing.T) {
	t.Parallel()
	if NewTable(Int64("a"), String("a")).Validate() == nil {
		t.Fatal("duplicate column accepted")
	}
}

func TestPartitionDurationOnDSTDays(t *testing.T) {
	t.Parallel()
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip(err)
	}
	p := Partition{Start: time.Date(2024, 3, 10, 0, 0, 0, 0, ny), End: time.Date(2024, 3, 11, 0, 0, 0, 0, ny)}
	if p.Duration() != 23*time.Hour || !p.Contains(p.Start) || p.Contains(p.End) {
		t.Fatalf("spring-forward day: %v", p.Duration())
	}
}

func TestContextWithoutWarehouse(t *testing.T) {
	t.Parallel()
	ctx := NewContext(context.Background(), ContextConfig{Vars: map[string]string{"a": "1"}})
	if ctx.Var("a", "") != "1" || ctx.Var("b", "def") != "def" {
		t.Fatal("vars")
	}
	if _, err := ctx.Query("SELECT 1"); err != ErrNoWarehouse {
		t.Fatalf("query without warehouse: %v", err)
	}
	ctx.Log.Info("no sink is fine")
}
