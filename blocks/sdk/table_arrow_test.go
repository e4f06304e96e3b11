package sdk_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/stratahq/strata/blocks/sdk"
)

// An Arrow record batch built with arrow-go becomes a Table typed by its
// Arrow types: decimal128(10,2) exact, a zoned timestamp an instant, an
// unzoned one a wall time, date32 a date, nulls kept.
func TestFromArrowTypesExactly(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "u64", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "at", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
		{Name: "wall", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "amount", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	at := time.Date(2024, 3, 10, 12, 0, 0, 123456000, time.UTC)
	b.Field(0).(*array.Int8Builder).AppendValues([]int8{-8, 0}, []bool{true, false})
	b.Field(1).(*array.Int64Builder).AppendValues([]int64{9007199254740993, 0}, []bool{true, false})
	b.Field(2).(*array.Uint64Builder).AppendValues([]uint64{1<<64 - 1, 0}, []bool{true, false})
	b.Field(3).(*array.Float32Builder).AppendValues([]float32{1.5, 0}, []bool{true, false})
	b.Field(4).(*array.BooleanBuilder).AppendValues([]bool{true, false}, []bool{true, false})
	b.Field(5).(*array.StringBuilder).AppendValues([]string{"héllo", ""}, []bool{true, false})
	b.Field(6).(*array.Date32Builder).AppendValues([]arrow.Date32{arrow.Date32FromTime(at), 0}, []bool{true, false})
	b.Field(7).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{arrow.Timestamp(at.UnixMicro()), 0}, []bool{true, false})
	b.Field(8).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{arrow.Timestamp(at.UnixMilli()), 0}, []bool{true, false})
	b.Field(9).(*array.Decimal128Builder).AppendValues([]decimal128.Num{decimal128.FromI64(1234567890), {}}, []bool{true, false})
	rec := b.NewRecordBatch()
	defer rec.Release()

	tab, err := sdk.FromArrow(rec)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range tab.Schema() {
		got = append(got, fmt.Sprintf("%s %s(%d,%d)", f.Name, f.Type, f.Precision, f.Scale))
	}
	want := "i8 int64(0,0); i64 int64(0,0); u64 uint64(0,0); f32 float64(0,0); ok bool(0,0); name string(0,0); day date(0,0); " +
		"at time(0,0); wall timestamp(0,0); amount decimal(10,2)"
	if s := strings.Join(got, "; "); s != want {
		t.Fatalf("schema\n  %s\nwant\n  %s", s, want)
	}
	if tab.Len() != 2 {
		t.Fatalf("%d rows, want 2", tab.Len())
	}
	if row := fmt.Sprint(tab.Row(0)); row != "[-8 9007199254740993 18446744073709551615 1.5 true héllo 2024-03-10 00:00:00 +0000 UTC "+
		"2024-03-10 12:00:00.123456 +0000 UTC 2024-03-10 12:00:00.123 +0000 UTC 12345678.90]" {
		t.Errorf("row 0: %s", row)
	}
	if row := fmt.Sprint(tab.Row(1)); row != "[<nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil>]" {
		t.Errorf("row 1 (nulls): %s", row)
	}
	if _, err := sdk.FromArrow(fakeRecord{}); err == nil || !strings.Contains(err.Error(), "no Column(i int) method") {
		t.Errorf("a value that is not a record batch: %v", err)
	}
}

type fakeRecord struct{}

func (fakeRecord) NumRows() int64        { return 0 }
func (fakeRecord) NumCols() int64        { return 0 }
func (fakeRecord) ColumnName(int) string { return "" }
