package main

import "fmt"

type Point struct{ X, Y int }

func (p Point) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

func show(v any) { fmt.Println("show", v) }

func main() {
	fmt.Println(Point{0, 0})
	var v any = Point{1, 1}
	fmt.Println(v)
	show(Point{1, 2})
}
