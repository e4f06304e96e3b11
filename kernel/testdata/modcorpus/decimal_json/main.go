package main

import (
	"encoding/json"
	"fmt"

	"github.com/shopspring/decimal"
)

type Invoice struct {
	ID     string          `json:"id"`
	Amount decimal.Decimal `json:"amount"`
}

func main() {
	var in Invoice
	if err := json.Unmarshal([]byte(`{"id":"inv-1","amount":"1234.5678"}`), &in); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(in.ID, in.Amount, in.Amount.Truncate(2))
	in.Amount = in.Amount.Shift(2)
	b, _ := json.Marshal(in)
	fmt.Println(string(b))
	var bad Invoice
	fmt.Println(json.Unmarshal([]byte(`{"amount":"abc"}`), &bad) != nil)
}
