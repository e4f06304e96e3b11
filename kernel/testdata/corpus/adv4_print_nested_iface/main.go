// Printing a slice, map or struct that holds an interface the block
// declares: fmt prints the values inside ([{1 2} {3 4}]). yaegi kept those
// values as its own wrappers and fmt printed the wrappers
// ([{0xc… {0xc… 0xc… 409}} …]); the block is refused at the Println.
package main

import "fmt"

type Shape interface{ Area() float64 }

type Rect struct{ W, H float64 }

func (r Rect) Area() float64 { return r.W * r.H }

type Box struct {
	Name  string
	Shape Shape
}

func main() {
	var s Shape = Rect{2, 2}
	fmt.Println(s, s.Area())
	shapes := []Shape{Rect{1, 2}, Rect{3, 4}}
	total := 0.0
	for _, sh := range shapes {
		total += sh.Area()
	}
	fmt.Println(total)
	fmt.Println(shapes)
	m := map[string]Shape{"a": Rect{5, 6}}
	fmt.Println(m)
	b := Box{"b", Rect{7, 8}}
	fmt.Printf("%v %+v\n", b, b)
}
