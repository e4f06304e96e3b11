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

type base struct{ name string }

func (b base) Name() string { return b.name }

type Rect struct {
	base
	W, H float64
}

func (r Rect) Area() float64 { return r.W * r.H }

type Circle struct {
	*base
	R float64
}

func (c Circle) Area() float64 { return 3 * c.R * c.R }

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }
func (s *Stack[T]) Pop() (T, bool) {
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

type Point struct{ X, Y int }

func main() {
	shapes := []Shape{Rect{base{"rect"}, 2, 3}, Circle{&base{"circle"}, 1}}
	sort.Slice(shapes, func(i, j int) bool { return shapes[i].Area() < shapes[j].Area() })
	for _, s := range shapes {
		fmt.Printf("%s %.1f\n", s.Name(), s.Area())
	}
	var st Stack[string]
	for _, w := range strings.Fields("a b c") {
		st.Push(w)
	}
	for {
		v, ok := st.Pop()
		if !ok {
			break
		}
		fmt.Print(v)
	}
	fmt.Println()
	arr := [3]int{1, 2, 3}
	brr := arr
	brr[0] = 9
	fmt.Println(arr, brr)
	m := map[Point]string{{1, 2}: "a"}
	p := Point{1, 2}
	fmt.Println(m[p])
	fmt.Println(Point{3, 4}.String2())
	g := p.String2
	p.X = 100
	fmt.Println(g())
	fmt.Printf("%+v %v\n", p, &p)
	var e error
	var pe *myErr
	fmt.Println(e == nil, pe == nil)
	x := uint8(250)
	x += 10
	fmt.Println(x, -7/2, -7%2, 1<<3>>1)
	for i, r := range "héllo" {
		fmt.Print(i, string(r), " ")
	}
	fmt.Println()
	defer fmt.Println("deferred", named())
}

type myErr struct{}

func (p Point) String2() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

func named() (n int) {
	defer func() { n *= 2 }()
	n = 3
	return n + 1
}
