// A value of an interface the block declares, stored in an `any` (a
// variable, a []any, a map[string]any, a parameter of the block's own
// function), prints as the value inside. yaegi kept its wrapper there and
// fmt printed {0xc… {0xc… 0xc… 409}} for {2 2}; fmt.Println(s) itself
// was right. The block is refused at the first such store.
package main

import "fmt"

type Shape interface{ Area() float64 }

type Rect struct{ W, H float64 }

func (r Rect) Area() float64 { return r.W * r.H }

func show(label string, v any) { fmt.Println(label, v) }

func main() {
	var s Shape = Rect{2, 2}
	fmt.Println(s, s.Area())
	var a any = s
	fmt.Println(a)
	row := []any{"shape", s, 3}
	fmt.Println(row...)
	show("param", s)
	m := map[string]any{"s": s}
	fmt.Println(m)
	r, ok := a.(Rect)
	fmt.Println(r, ok)
}
