package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

const csvData = `sku,category,name,qty,price
A100,tools,hammer,12,9.99
A101,tools,wrench,3,14.50
B200,garden,hose,0,22.00
B201,garden,rake,7,11.25
C300,paint,white 1L,40,6.75
C301,paint,black 1L,2,6.75
A102,tools,pliers,9,7.20
`

type Item struct {
	SKU, Category, Name string
	Qty                 int
	Price               float64
}

func (i Item) Value() float64 { return float64(i.Qty) * i.Price }

func parse(data string) ([]Item, []error) {
	var items []Item
	var errs []error
	lines := strings.Split(strings.TrimSpace(data), "\n")
	for n, line := range lines[1:] {
		f := strings.Split(line, ",")
		qty, err := strconv.Atoi(f[3])
		if err != nil {
			errs = append(errs, fmt.Errorf("line %d: qty: %w", n+2, err))
			continue
		}
		price, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			errs = append(errs, fmt.Errorf("line %d: price: %w", n+2, err))
			continue
		}
		items = append(items, Item{f[0], f[1], f[2], qty, price})
	}
	return items, errs
}

func main() {
	items, errs := parse(csvData + "D400,misc,bad,x,1\n")
	for _, e := range errs {
		fmt.Println("skip:", e)
	}
	byCat := map[string][]Item{}
	for _, it := range items {
		byCat[it.Category] = append(byCat[it.Category], it)
	}
	cats := make([]string, 0, len(byCat))
	for c := range byCat {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	grand := 0.0
	fmt.Printf("%-8s %-10s %5s %8s %9s\n", "CAT", "NAME", "QTY", "PRICE", "VALUE")
	for _, c := range cats {
		list := byCat[c]
		sort.Slice(list, func(i, j int) bool { return list[i].Value() > list[j].Value() })
		sub := 0.0
		for _, it := range list {
			flag := ""
			if it.Qty < 5 {
				flag = " LOW"
			}
			fmt.Printf("%-8s %-10s %5d %8.2f %9.2f%s\n", c, it.Name, it.Qty, it.Price, it.Value(), flag)
			sub += it.Value()
		}
		fmt.Printf("%-8s %-10s %5s %8s %9.2f\n", "", "subtotal", "", "", sub)
		grand += sub
	}
	fmt.Printf("%s\n%-8s %-10s %5s %8s %9.2f\n", strings.Repeat("=", 44), "", "TOTAL", "", "", grand)
	fmt.Println(len(byCat["tools"]), byCat["tools"][0].SKU, strconv.FormatFloat(grand, 'e', 3, 64))
}
