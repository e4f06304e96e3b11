package main

import (
	"fmt"

	"gonum.org/v1/gonum/floats"
)

func main() {
	a := []float64{3, 1, 4, 1, 5, 9, 2, 6}
	b := []float64{2, 7, 1, 8, 2, 8, 1, 8}
	fmt.Println(floats.Sum(a), floats.Dot(a, b), floats.Max(a), floats.MaxIdx(a), floats.Min(b))
	c := make([]float64, len(a))
	floats.AddTo(c, a, b)
	fmt.Println(c)
	floats.Scale(0.5, c)
	fmt.Println(c, floats.Norm(a, 2) > 13)
	idx := make([]int, len(a))
	s := append([]float64(nil), a...)
	floats.Argsort(s, idx)
	fmt.Println(s, idx)
	fmt.Println(floats.Span(make([]float64, 5), 0, 1))
}
