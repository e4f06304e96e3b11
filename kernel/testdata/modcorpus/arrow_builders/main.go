package main

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func main() {
	mem := memory.NewGoAllocator()
	ib := array.NewInt64Builder(mem)
	defer ib.Release()
	ib.AppendValues([]int64{10, 20, 30}, nil)
	ib.AppendNull()
	ids := ib.NewInt64Array()
	defer ids.Release()
	sb := array.NewStringBuilder(mem)
	defer sb.Release()
	sb.AppendValues([]string{"a", "b", "c", "d"}, nil)
	names := sb.NewStringArray()
	defer names.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "name", Type: arrow.BinaryTypes.String}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{ids, names}, 4)
	defer rec.Release()
	fmt.Println(rec.NumRows(), rec.NumCols(), rec.Schema().Field(0).Name, ids.NullN())
	var sum int64
	for i := 0; i < ids.Len(); i++ {
		if ids.IsValid(i) {
			sum += ids.Value(i)
		}
	}
	fmt.Println(sum, names.Value(2), ids.String(), names.String())
	fmt.Println(schema)
}
