package main

import (
	"fmt"

	"github.com/shopspring/decimal"
)

type line struct {
	sku   string
	price decimal.Decimal
	qty   int64
}

func main() {
	lines := []line{
		{"A-1", decimal.RequireFromString("12.10"), 3},
		{"B-2", decimal.RequireFromString("0.35"), 17},
		{"C-3", decimal.RequireFromString("199.99"), 1},
	}
	total := decimal.Zero
	for _, l := range lines {
		sub := l.price.Mul(decimal.NewFromInt(l.qty))
		fmt.Printf("%-4s %8s\n", l.sku, sub.StringFixed(2))
		total = total.Add(sub)
	}
	vat := total.Mul(decimal.RequireFromString("0.21")).Round(2)
	fmt.Println("total", total.StringFixed(2), "vat", vat, "gross", total.Add(vat))
	fmt.Println(decimal.Max(lines[0].price, lines[1].price, lines[2].price), decimal.Min(lines[0].price, lines[1].price))
	fmt.Println(decimal.Avg(lines[0].price, lines[1].price, lines[2].price).StringFixed(4))
	f, exact := total.Float64()
	fmt.Println(f, exact, total.IntPart(), total.Sign(), total.Neg())
}
