package main

import "fmt"

func Index[T comparable](xs []T, x T) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

func Count[T comparable](xs []T) map[T]int {
	m := make(map[T]int)
	for _, x := range xs {
		m[x]++
	}
	return m
}

func Dedup[T comparable](xs []T) []T {
	seen := make(map[T]bool)
	var out []T
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

type Pair[K comparable, V any] struct {
	Key K
	Val V
}

func Equal[T comparable](a, b T) bool { return a == b }

type Point struct{ X, Y int }

type Tag struct {
	Name string
	Pt   Point
}

func main() {
	pts := []Point{{1, 2}, {3, 4}, {1, 2}, {0, 0}, {3, 4}}
	fmt.Println(Index(pts, Point{3, 4}), Index(pts, Point{9, 9}))
	fmt.Println(Dedup(pts))
	c := Count(pts)
	fmt.Println(c[Point{1, 2}], c[Point{0, 0}], len(c))

	tags := []Tag{{"a", Point{1, 1}}, {"b", Point{2, 2}}, {"a", Point{1, 1}}}
	fmt.Println(Dedup(tags), Equal(tags[0], tags[2]), Equal(tags[0], tags[1]))

	var e1, e2 any = Point{1, 2}, Point{1, 2}
	fmt.Println(e1 == e2, Equal(e1, e2), Equal[any](1, 1.0))

	arrs := [][2]int{{1, 2}, {2, 1}, {1, 2}}
	fmt.Println(Dedup(arrs), Index(arrs, [2]int{2, 1}))

	p := Pair[string, []int]{"k", []int{1}}
	q := Pair[Point, string]{Point{1, 1}, "v"}
	fmt.Printf("%v %+v\n", p, q)
	ptrs := []*Point{&pts[0], &pts[2]}
	fmt.Println(Equal(ptrs[0], ptrs[1]), *ptrs[0] == *ptrs[1])

	defer func() { fmt.Println("recovered:", recover()) }()
	var f1, f2 any = []int{1}, []int{1}
	fmt.Println(Equal(f1, f2))
}
