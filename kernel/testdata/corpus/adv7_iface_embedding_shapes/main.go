package main

import (
	"fmt"
	"math"
	"sort"
)

type Shape interface {
	Area() float64
	Perimeter() float64
}

type Named struct{ Name string }

func (n Named) Label() string { return "<" + n.Name + ">" }

type Rect struct {
	Named
	W, H float64
}

func (r Rect) Area() float64      { return r.W * r.H }
func (r Rect) Perimeter() float64 { return 2 * (r.W + r.H) }

type Circle struct {
	Named
	R float64
}

func (c *Circle) Area() float64      { return math.Pi * c.R * c.R }
func (c *Circle) Perimeter() float64 { return 2 * math.Pi * c.R }
func (c *Circle) Grow(f float64)     { c.R *= f }

type Square struct {
	Rect
}

func NewSquare(name string, s float64) Square {
	return Square{Rect{Named{name}, s, s}}
}

func total(shapes []Shape) (a, p float64) {
	for _, s := range shapes {
		a += s.Area()
		p += s.Perimeter()
	}
	return
}

func main() {
	c := &Circle{Named{"c1"}, 1}
	shapes := []Shape{
		Rect{Named{"r1"}, 3, 4},
		c,
		NewSquare("s1", 2),
	}
	a, p := total(shapes)
	fmt.Printf("%.3f %.3f\n", a, p)
	c.Grow(2)
	a, p = total(shapes)
	fmt.Printf("%.3f %.3f\n", a, p)
	sort.Slice(shapes, func(i, j int) bool { return shapes[i].Area() < shapes[j].Area() })
	for _, s := range shapes {
		switch v := s.(type) {
		case Rect:
			fmt.Println("rect", v.Label(), v.W, v.H)
		case *Circle:
			fmt.Println("circle", v.Label(), v.R)
		case Square:
			fmt.Println("square", v.Label(), v.W, v.Name)
		}
	}
	sq := NewSquare("s2", 5)
	sq.Name = "renamed"
	sq.W = 6
	fmt.Println(sq.Label(), sq.Area(), sq.Rect.Named.Name)
	if r, ok := shapes[0].(Rect); ok {
		fmt.Println("first is rect", r.Name)
	} else {
		fmt.Println("first is not a rect")
	}
	_, isCircle := shapes[2].(*Circle)
	fmt.Println(isCircle)
	var s Shape
	fmt.Println(s == nil)
	s = c
	fmt.Println(s != nil, s.(*Circle) == c)
}
