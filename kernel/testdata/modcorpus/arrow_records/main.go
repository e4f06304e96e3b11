package main

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func main() {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "day", Type: arrow.BinaryTypes.String},
		{Name: "amount", Type: arrow.PrimitiveTypes.Float64},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"2024-01-01", "2024-01-02", "2024-01-03"}, nil)
	b.Field(1).(*array.Float64Builder).AppendValues([]float64{10.5, 20.25, 5}, nil)
	b.Field(2).(*array.BooleanBuilder).AppendValues([]bool{true, false, true}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	amounts := rec.Column(1).(*array.Float64)
	total := 0.0
	for _, v := range amounts.Float64Values() {
		total += v
	}
	fmt.Println(rec.NumRows(), total, rec.ColumnName(2), rec.Column(2).(*array.Boolean).Value(1))
	slice := rec.NewSlice(1, 3)
	defer slice.Release()
	fmt.Println(slice.NumRows(), slice.Column(0).(*array.String).Value(0))
}
