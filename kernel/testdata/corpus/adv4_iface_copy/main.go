// A value that becomes an interface is copied. yaegi kept a value of the
// block's type with methods together with the variable it came from, so a
// later change to the variable, the range variable or the slice element
// showed through the interface, and `append(shapes, mk(w))` in a loop left
// every element equal to the last (the call's result slot is reused). In
// an `any`, such a value also printed as yaegi's wrapper ({0xc… {…}}).
package main

import (
	"fmt"
	"sort"
	"strings"
)

type Shape interface{ Area() float64 }

type Rect struct{ W, H float64 }

func (r Rect) Area() float64 { return r.W * r.H }

type Point struct{ X, Y int }

func (p Point) String() string { return fmt.Sprintf("P(%d,%d)", p.X, p.Y) }

type Stage interface{ Run(string) string }

type replace struct{ old, new string }

func (r replace) Run(s string) string { return strings.ReplaceAll(s, r.old, r.new) }

func mk(w float64) Rect { return Rect{w, 1} }

func areas(ss []Shape) (out []float64) {
	for _, s := range ss {
		out = append(out, s.Area())
	}
	return
}

func biggest(rs []Rect) Shape {
	best := rs[0]
	for _, r := range rs[1:] {
		if r.Area() > best.Area() {
			best = r
		}
	}
	return best
}

func main() {
	r := Rect{1, 2}
	var s1 Shape = r
	r.W = 10
	var s2 Shape
	s2 = r
	r.H = 3
	s3 := Shape(r)
	r.W = 0
	fmt.Println(s1.Area(), s2.Area(), s3.Area())

	var built, fromCalls, fromRange, fromIndex []Shape
	var cur Rect
	for _, w := range []float64{1, 2, 3} {
		cur = Rect{w, 1}
		built = append(built, cur)
		fromCalls = append(fromCalls, mk(w))
		x := Rect{w, 2}
		fromRange = append(fromRange, x)
		x.H = 100
	}
	rs := []Rect{{1, 1}, {2, 1}}
	for _, r := range rs {
		fromIndex = append(fromIndex, r)
	}
	for i := range rs {
		fromIndex = append(fromIndex, rs[i])
	}
	rs[0].W = 50
	fmt.Println(areas(built), areas(fromCalls), areas(fromRange), areas(fromIndex))
	top := biggest([]Rect{{1, 1}, {3, 3}, {2, 2}})
	fmt.Println(top.Area())

	m := map[string]Shape{}
	r = Rect{2, 2}
	m["a"] = r
	r.W = 9
	fmt.Println(m["a"].Area(), len(m))

	p := Point{1, 2}
	var st fmt.Stringer = p
	p.X = 9
	var pts []fmt.Stringer
	for _, q := range []Point{{1, 1}, {2, 2}} {
		pts = append(pts, q)
	}
	fmt.Println(st.String(), pts[0].String(), pts[1].String())

	var a any = Rect{1, 2}
	var b any
	b = r
	r.H = 0
	fmt.Println(a, b, []any{Rect{3, 4}, 5})
	fmt.Printf("%v %+v\n", a, b)

	var stages []Stage
	rep := replace{"a", "b"}
	for _, pair := range [][2]string{{"a", "b"}, {"b", "c"}} {
		rep.old, rep.new = pair[0], pair[1]
		stages = append(stages, rep)
	}
	in := "banana"
	for _, stg := range stages {
		in = stg.Run(in)
	}
	fmt.Println(in)

	sort.Slice(fromIndex, func(i, j int) bool { return fromIndex[i].Area() > fromIndex[j].Area() })
	fmt.Println(areas(fromIndex))
	ch := make(chan Shape, 2)
	r = Rect{4, 1}
	ch <- r
	r.W = 5
	ch <- r
	fmt.Println((<-ch).Area(), (<-ch).Area())
}
