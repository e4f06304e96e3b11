// An invoice with a Money type whose String method formats cents with %d
// (refused: yaegi hands fmt such values in a wrapper), a fluent builder
// with pointer receivers, and a small state machine.
package main

import (
	"fmt"
	"strings"
)

type Money int64

func (m Money) String() string { return fmt.Sprintf("$%d.%02d", m/100, m%100) }

type Line struct {
	Item  string
	Qty   int
	Price Money
}

func (l Line) Total() Money { return Money(l.Qty) * l.Price }

type Invoice struct {
	Lines []Line
	Tax   float64
}

func (inv *Invoice) Add(item string, qty int, price Money) *Invoice {
	inv.Lines = append(inv.Lines, Line{item, qty, price})
	return inv
}

func (inv Invoice) Subtotal() (s Money) {
	for _, l := range inv.Lines {
		s += l.Total()
	}
	return
}

func (inv Invoice) Render() string {
	var b strings.Builder
	for _, l := range inv.Lines {
		fmt.Fprintf(&b, "%-8s %3d x %s = %s\n", l.Item, l.Qty, l.Price.String(), l.Total().String())
	}
	sub := inv.Subtotal()
	tax := Money(float64(sub) * inv.Tax)
	fmt.Fprintf(&b, "subtotal %s tax %s total %s\n", sub.String(), tax.String(), (sub + tax).String())
	return b.String()
}

type state int

const (
	idle state = iota
	running
	done
)

var names = [...]string{"idle", "running", "done"}

func (s state) name() string { return names[s] }

type machine struct {
	st    state
	trans map[state][]state
}

func (m *machine) to(s state) error {
	for _, ok := range m.trans[m.st] {
		if ok == s {
			m.st = s
			return nil
		}
	}
	return fmt.Errorf("bad transition %s -> %s", m.st.name(), s.name())
}

func main() {
	inv := &Invoice{Tax: 0.1}
	inv.Add("widget", 3, 250).Add("gadget", 1, 1999).Add("nut", 100, 5)
	fmt.Print(inv.Render())
	copyInv := *inv
	copyInv.Lines = append([]Line(nil), inv.Lines...)
	copyInv.Lines[0].Qty = 0
	fmt.Println(inv.Subtotal().String(), copyInv.Subtotal().String())
	m := &machine{trans: map[state][]state{idle: {running}, running: {done, idle}}}
	for _, s := range []state{running, done, idle} {
		if err := m.to(s); err != nil {
			fmt.Println(err)
		} else {
			fmt.Println("now", m.st.name())
		}
	}
}
