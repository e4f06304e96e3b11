package main

import (
	"fmt"

	"github.com/shopspring/decimal"
)

func split(total decimal.Decimal, parts int) []decimal.Decimal {
	each := total.Div(decimal.NewFromInt(int64(parts))).RoundDown(2)
	out := make([]decimal.Decimal, parts)
	rest := total
	for i := range out {
		out[i] = each
		rest = rest.Sub(each)
	}
	out[0] = out[0].Add(rest)
	return out
}

func main() {
	parts := split(decimal.RequireFromString("100.00"), 3)
	sum := decimal.Zero
	for _, p := range parts {
		sum = sum.Add(p)
		fmt.Print(p.StringFixed(2), " ")
	}
	fmt.Println("=", sum.StringFixed(2))
	rate := decimal.RequireFromString("1.0825")
	fmt.Println(decimal.RequireFromString("19.99").Mul(rate).RoundCeil(2), decimal.RequireFromString("19.99").Mul(rate).RoundFloor(2))
	fmt.Println(decimal.RequireFromString("2.5").RoundBank(0), decimal.RequireFromString("3.5").RoundBank(0), decimal.RequireFromString("-2.5").Round(0))
}
