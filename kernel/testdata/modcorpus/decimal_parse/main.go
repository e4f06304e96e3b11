package main

import (
	"fmt"

	"github.com/shopspring/decimal"
)

func main() {
	for _, s := range []string{"1.50", "-0.000123", "1e3", "12,5", "", "3.14159265358979323846264338327950288"} {
		d, err := decimal.NewFromString(s)
		if err != nil {
			fmt.Printf("%q: error %v\n", s, err)
			continue
		}
		fmt.Printf("%q: %s exp=%d fixed3=%s\n", s, d, d.Exponent(), d.StringFixed(3))
	}
	fmt.Println(decimal.NewFromFloat32(0.1), decimal.NewFromFloat(0.1).Pow(decimal.NewFromInt(3)))
}
