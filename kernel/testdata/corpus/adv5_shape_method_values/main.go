package main

import (
	"fmt"
	"math"
)

type Shape interface {
	Area() float64
	Name() string
}

type Rect struct{ W, H float64 }
type Circle struct{ R float64 }

func (r Rect) Area() float64    { return r.W * r.H }
func (r Rect) Name() string     { return "rect" }
func (c *Circle) Area() float64 { return math.Pi * c.R * c.R }
func (c *Circle) Name() string  { return "circle" }

func main() {
	shapes := []Shape{Rect{2, 3}, &Circle{1}, Rect{1, 1}}
	var areas []func() float64
	var names []func() string
	for _, s := range shapes {
		areas = append(areas, s.Area)
		names = append(names, s.Name)
	}
	for i := range areas {
		fmt.Printf("%s %.2f\n", names[i](), areas[i]())
	}
	total := 0.0
	for _, s := range shapes {
		if c, ok := s.(*Circle); ok {
			c.R = 2
		}
		total += s.Area()
	}
	fmt.Printf("%.2f\n", total)
	byName := map[string]Shape{}
	for _, s := range shapes {
		byName[s.Name()] = s
	}
	fmt.Printf("%.2f %d\n", byName["rect"].Area(), len(byName))
}
