package main

import "fmt"

// A type assertion, in a helper function, from an interface the program
// declares to a concrete type it declares: the value arrives as an
// argument given directly, through a function's result, as a variadic
// element, to a method and to a function value.

type shape interface {
	area() float64
}

type circle struct{ r float64 }
type square struct{ side float64 }
type ring struct{ inner, outer float64 }

func (c circle) area() float64  { return 3 * c.r * c.r }
func (s square) area() float64  { return s.side * s.side }
func (r *ring) area() float64   { return 3 * (r.outer*r.outer - r.inner*r.inner) }
func newCircle(r float64) shape { return circle{r} }
func grow(s shape) shape        { return s }

func describe(s shape) string {
	if c, ok := s.(circle); ok {
		return fmt.Sprintf("circle r=%v", c.r)
	}
	if r, ok := s.(*ring); ok {
		return fmt.Sprintf("ring %v..%v", r.inner, r.outer)
	}
	switch v := s.(type) {
	case square:
		return fmt.Sprintf("square side=%v", v.side)
	}
	return "unknown"
}

func count(shapes ...shape) (circles int) {
	for _, s := range shapes {
		if _, ok := s.(circle); ok {
			circles++
		}
	}
	return circles
}

type gallery struct{ name string }

func (g gallery) show(s shape) string { return g.name + ": " + describe(s) }

func main() {
	c := circle{2}
	fmt.Println(describe(c))
	fmt.Println(describe(circle{3}))
	fmt.Println(describe(square{4}))
	fmt.Println(describe(&ring{1, 2}))
	fmt.Println(describe(newCircle(5)))
	fmt.Println(describe(grow(c)))
	fmt.Println(describe(grow(grow(square{6}))))
	fmt.Println(count(c, square{1}, circle{7}, newCircle(8)))
	fmt.Println(gallery{"hall"}.show(c))
	f := describe
	fmt.Println(f(circle{9}))
	fmt.Println(func(s shape) bool { _, ok := s.(circle); return ok }(c))
	var s shape = c
	fmt.Println(describe(s))
	shapes := []shape{c, square{2}}
	fmt.Println(describe(shapes[0]), describe(shapes[1]))
	fmt.Printf("%.1f\n", newCircle(1).area()+grow(square{2}).area())
}
