package main

import (
	"fmt"
	"sort"
	"strings"
)

type Shape interface {
	Area() float64
	Name() string
}

type base struct{ label string }

func (b base) Name() string { return b.label }

type Square struct {
	base
	side float64
}

func (s Square) Area() float64 { return s.side * s.side }

// Decorated embeds an interface: it forwards everything it does not override.
type Decorated struct {
	Shape
	tag string
}

func (d Decorated) Name() string { return d.tag + ":" + d.Shape.Name() }

type byArea []Shape

func (a byArea) Len() int           { return len(a) }
func (a byArea) Less(i, j int) bool { return a[i].Area() < a[j].Area() }
func (a byArea) Swap(i, j int)      { a[i], a[j] = a[j], a[i] }

func main() {
	shapes := []Shape{
		Square{base{"big"}, 3},
		Decorated{Square{base{"small"}, 1}, "red"},
		Decorated{Decorated{Square{base{"mid"}, 2}, "blue"}, "x"},
	}
	sort.Sort(byArea(shapes))
	var names []string
	for _, s := range shapes {
		names = append(names, fmt.Sprintf("%s=%.1f", s.Name(), s.Area()))
	}
	fmt.Println(strings.Join(names, " "))
	d := shapes[1].(Decorated)
	inner, ok := d.Shape.(Decorated)
	fmt.Println(ok, inner.tag, inner.Shape.(Square).side)
	var nilD Decorated
	func() {
		defer func() { fmt.Println("recovered:", recover() != nil) }()
		_ = nilD.Area()
	}()
}
