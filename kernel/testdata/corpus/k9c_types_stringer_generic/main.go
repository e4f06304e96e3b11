package main

import "fmt"

type Point struct{ X, Y int }

func (p Point) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

func (s *Stack[T]) Dump() { fmt.Println(s.items) }

func main() {
	var s Stack[Point]
	s.Push(Point{1, 2})
	s.Dump()
}
