package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
)

type Order struct {
	ID     int64   `parquet:"id"`
	Amount float64 `parquet:"amount"`
	Region string  `parquet:"region"`
}

func main() {
	var buf bytes.Buffer
	w := parquet.NewWriter(&buf, parquet.SchemaOf(Order{}))
	for i := int64(1); i <= 5; i++ {
		if err := w.Write(Order{ID: i, Amount: float64(i) * 1.5, Region: []string{"eu", "us"}[i%2]}); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
		return
	}
	f, err := parquet.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.NumRows(), len(f.RowGroups()), f.Schema())
	r := parquet.NewReader(bytes.NewReader(buf.Bytes()))
	total := 0.0
	for {
		var o Order
		if err := r.Read(&o); err == io.EOF {
			break
		} else if err != nil {
			fmt.Println(err)
			return
		}
		total += o.Amount
		fmt.Println(o.ID, o.Amount, o.Region)
	}
	fmt.Println(total)
}
