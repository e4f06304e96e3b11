package main

import (
	"fmt"

	"github.com/shopspring/decimal"
)

func main() {
	for _, s := range []string{"2.345", "2.355", "-1.005", "0.125", "1234.5678"} {
		d := decimal.RequireFromString(s)
		fmt.Println(s, d.Round(2), d.RoundBank(2), d.Truncate(1), d.Floor(), d.Ceil())
	}
	third := decimal.NewFromInt(1).DivRound(decimal.NewFromInt(3), 10)
	fmt.Println(third, third.Mul(decimal.NewFromInt(3)), third.StringFixed(4))
	fmt.Println(decimal.New(12345, -3), decimal.New(12345, 2).String(), decimal.Avg(decimal.NewFromInt(1), decimal.NewFromInt(2)))
}
