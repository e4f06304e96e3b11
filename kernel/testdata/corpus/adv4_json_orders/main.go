// Orders decoded from JSON (nested slices, an optional pointer field, null
// and empty arrays), sorted with sort.Sort over the block's own slice
// type, summarized into pointers in a map and encoded back indented.
package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

type Order struct {
	ID     int      `json:"id"`
	Buyer  string   `json:"buyer"`
	Items  []Item   `json:"items"`
	Coupon *string  `json:"coupon,omitempty"`
	Tags   []string `json:"tags"`
}

type Item struct {
	SKU   string  `json:"sku"`
	Qty   int     `json:"qty"`
	Price float64 `json:"price"`
}

func (o Order) Total() (t float64) {
	for _, it := range o.Items {
		t += float64(it.Qty) * it.Price
	}
	if o.Coupon != nil && strings.HasPrefix(*o.Coupon, "HALF") {
		t /= 2
	}
	return
}

type byTotal []Order

func (b byTotal) Len() int           { return len(b) }
func (b byTotal) Less(i, j int) bool { return b[i].Total() > b[j].Total() }
func (b byTotal) Swap(i, j int)      { b[i], b[j] = b[j], b[i] }

type Summary struct {
	Buyer string  `json:"buyer"`
	Spent float64 `json:"spent"`
	Count int     `json:"count"`
}

func main() {
	raw := `[{"id":1,"buyer":"ann","items":[{"sku":"a","qty":2,"price":1.5}],"tags":["x"]},
	{"id":2,"buyer":"bo","items":[{"sku":"b","qty":1,"price":10},{"sku":"c","qty":3,"price":2}],"coupon":"HALF-OFF","tags":null},
	{"id":3,"buyer":"ann","items":[],"tags":[]}]`
	var orders []Order
	if err := json.Unmarshal([]byte(raw), &orders); err != nil {
		fmt.Println("error:", err)
		return
	}
	sort.Sort(byTotal(orders))
	for _, o := range orders {
		fmt.Printf("%d %s %.2f %v %v\n", o.ID, o.Buyer, o.Total(), o.Tags == nil, o.Coupon != nil)
	}
	sums := map[string]*Summary{}
	for _, o := range orders {
		s := sums[o.Buyer]
		if s == nil {
			s = &Summary{Buyer: o.Buyer}
			sums[o.Buyer] = s
		}
		s.Spent += o.Total()
		s.Count++
	}
	var list []Summary
	for _, s := range sums {
		list = append(list, *s)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Buyer < list[j].Buyer })
	out, _ := json.MarshalIndent(list, "", "  ")
	fmt.Println(string(out))
	var back []Summary
	_ = json.Unmarshal(out, &back)
	fmt.Println(len(back), back[0].Buyer, back[1].Spent)
}
