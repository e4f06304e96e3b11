package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

type Address struct {
	Street string `json:"street"`
	City   string `json:"city,omitempty"`
	Zip    string `json:"-"`
}

type Order struct {
	ID       int               `json:"id"`
	Customer string            `json:"customer"`
	Items    []Item            `json:"items"`
	Tags     []string          `json:"tags,omitempty"`
	Meta     map[string]string `json:"meta,omitempty"`
	Ship     *Address          `json:"ship,omitempty"`
	Total    float64           `json:"total"`
	Paid     bool              `json:"paid"`
	Count    int64             `json:"count,string"`
	Note     *string           `json:"note"`
}

type Item struct {
	SKU   string  `json:"sku"`
	Qty   int     `json:"qty"`
	Price float64 `json:"price"`
}

func main() {
	o := Order{ID: 7, Customer: "ann", Items: []Item{{"a1", 2, 9.5}, {"b2", 1, 0.25}},
		Meta: map[string]string{"z": "last", "a": "first"}, Total: 19.25, Count: 3}
	b, err := json.Marshal(o)
	fmt.Println(string(b), err)

	note := "leave at door"
	o.Ship = &Address{Street: "1 Main", Zip: "12345"}
	o.Note = &note
	o.Tags = []string{"gift"}
	b, _ = json.MarshalIndent(o, "", "  ")
	fmt.Println(string(b))

	in := `{"id": 9, "customer": "bob", "items": [{"sku": "x", "qty": 4, "price": 1.5}],
	        "ship": {"street": "2 Side", "city": "Oslo", "Zip": "999"}, "count": "12", "extra": true, "note": null}`
	var got Order
	if err := json.Unmarshal([]byte(in), &got); err != nil {
		fmt.Println("error:", err)
	}
	fmt.Printf("%d %s %v %s %s %q %d %v\n", got.ID, got.Customer, got.Items, got.Ship.Street, got.Ship.City, got.Ship.Zip, got.Count, got.Note == nil)

	var generic map[string]any
	json.Unmarshal([]byte(in), &generic)
	fmt.Printf("%T %v %T\n", generic["id"], generic["id"], generic["items"])
	items := generic["items"].([]any)
	first := items[0].(map[string]any)
	fmt.Println(first["sku"], first["qty"].(float64)*2)

	dec := json.NewDecoder(strings.NewReader(`{"sku":"a","qty":1} {"sku":"b","qty":2,"bogus":1}`))
	dec.DisallowUnknownFields()
	for {
		var it Item
		if err := dec.Decode(&it); err != nil {
			fmt.Println("decode stop:", err)
			break
		}
		fmt.Println("item", it.SKU, it.Qty)
	}

	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	enc.Encode(map[string]any{"html": "<b>&</b>", "n": 1.0, "list": []int{}, "nil": nil})
	var bad struct{ N int }
	err = json.Unmarshal([]byte(`{"N": "str"}`), &bad)
	fmt.Println(err)
	err = json.Unmarshal([]byte(`{"N": 1`), &bad)
	fmt.Println(err)
}
