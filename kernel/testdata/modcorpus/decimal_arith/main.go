package main

import (
	"fmt"

	"github.com/shopspring/decimal"
)

func main() {
	a, _ := decimal.NewFromString("0.1")
	b, _ := decimal.NewFromString("0.2")
	fmt.Println(a.Add(b), 0.1+0.2 == 0.3, a.Add(b).Equal(decimal.RequireFromString("0.3")))
	price := decimal.NewFromFloat(19.99)
	qty := decimal.NewFromInt(3)
	fmt.Println(price.Mul(qty), price.Mul(qty).StringFixed(1))
	fmt.Println(decimal.NewFromInt(10).Div(decimal.NewFromInt(3)))
	fmt.Println(decimal.NewFromInt(10).DivRound(decimal.NewFromInt(3), 4))
	fmt.Println(decimal.RequireFromString("2.345").Round(2), decimal.RequireFromString("2.345").RoundBank(2), decimal.RequireFromString("2.355").RoundBank(2))
	fmt.Println(decimal.RequireFromString("-1.5").Abs(), decimal.RequireFromString("1.50").Cmp(decimal.RequireFromString("1.5")))
	fmt.Println(decimal.New(12345, -2), decimal.New(12345, -2).Exponent(), decimal.New(12345, -2).Coefficient())
}
