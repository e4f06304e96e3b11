package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

type Item struct {
	SKU   string
	Name  string
	Qty   int
	Price float64
}

type Inventory struct {
	items map[string]*Item
	log   []string
}

var ErrUnknown = errors.New("unknown sku")

func NewInventory() *Inventory { return &Inventory{items: make(map[string]*Item)} }

func (inv *Inventory) Add(it Item) {
	if cur, ok := inv.items[it.SKU]; ok {
		cur.Qty += it.Qty
		inv.logf("restock %s +%d", it.SKU, it.Qty)
		return
	}
	inv.items[it.SKU] = &it
	inv.logf("new %s", it.SKU)
}

func (inv *Inventory) Remove(sku string, n int) error {
	it, ok := inv.items[sku]
	if !ok {
		return fmt.Errorf("remove %s: %w", sku, ErrUnknown)
	}
	if it.Qty < n {
		return fmt.Errorf("remove %s: only %d left", sku, it.Qty)
	}
	it.Qty -= n
	if it.Qty == 0 {
		delete(inv.items, sku)
	}
	inv.logf("remove %s -%d", sku, n)
	return nil
}

func (inv *Inventory) logf(f string, args ...any) { inv.log = append(inv.log, fmt.Sprintf(f, args...)) }

func (inv *Inventory) Value() (total float64) {
	for _, it := range inv.items {
		total += float64(it.Qty) * it.Price
	}
	return
}

func (inv *Inventory) Sorted(by func(a, b *Item) bool) []Item {
	list := make([]*Item, 0, len(inv.items))
	for _, it := range inv.items {
		list = append(list, it)
	}
	sort.Slice(list, func(i, j int) bool { return by(list[i], list[j]) })
	out := make([]Item, len(list))
	for i, p := range list {
		out[i] = *p
	}
	return out
}

func main() {
	inv := NewInventory()
	for _, it := range []Item{
		{"A1", "bolt", 100, 0.05},
		{"B2", "nut", 250, 0.02},
		{"C3", "gear", 5, 12.5},
		{"A1", "bolt", 50, 0.05},
	} {
		inv.Add(it)
	}
	fmt.Printf("%.2f\n", inv.Value())
	for _, err := range []error{inv.Remove("C3", 5), inv.Remove("B2", 300), inv.Remove("Z9", 1), inv.Remove("A1", 20)} {
		fmt.Println(err, errors.Is(err, ErrUnknown))
	}
	byQty := inv.Sorted(func(a, b *Item) bool { return a.Qty > b.Qty })
	for _, it := range byQty {
		fmt.Printf("%-4s %-6s %5d %6.2f\n", it.SKU, it.Name, it.Qty, it.Price)
	}
	byQty[0].Qty = 0
	fmt.Println(inv.items["B2"].Qty, strings.Join(inv.log, "; "))
}
