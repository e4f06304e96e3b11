package main

import (
	"fmt"
	"sort"
	"strings"
)

type Set[T comparable] map[T]struct{}

func SetOf[T comparable](xs ...T) Set[T] {
	s := make(Set[T], len(xs))
	for _, x := range xs {
		s.Add(x)
	}
	return s
}

func (s Set[T]) Add(x T)      { s[x] = struct{}{} }
func (s Set[T]) Has(x T) bool { _, ok := s[x]; return ok }
func (s Set[T]) Len() int     { return len(s) }
func (s Set[T]) Remove(x T)   { delete(s, x) }
func (s Set[T]) Union(o Set[T]) Set[T] {
	out := make(Set[T])
	for x := range s {
		out.Add(x)
	}
	for x := range o {
		out.Add(x)
	}
	return out
}

func (s Set[T]) Intersect(o Set[T]) Set[T] {
	out := make(Set[T])
	for x := range s {
		if o.Has(x) {
			out.Add(x)
		}
	}
	return out
}

func (s Set[T]) Diff(o Set[T]) Set[T] {
	out := make(Set[T])
	for x := range s {
		if !o.Has(x) {
			out.Add(x)
		}
	}
	return out
}

func Sorted[T comparable](s Set[T], less func(a, b T) bool) []T {
	out := make([]T, 0, len(s))
	for x := range s {
		out = append(out, x)
	}
	sort.Slice(out, func(i, j int) bool { return less(out[i], out[j]) })
	return out
}

type coord struct{ x, y int }

func main() {
	a := SetOf(strings.Split("go rust zig c go", " ")...)
	b := SetOf("c", "python", "go")
	str := func(a, b string) bool { return a < b }
	fmt.Println("a", Sorted(a, str), a.Len())
	fmt.Println("union", Sorted(a.Union(b), str))
	fmt.Println("inter", Sorted(a.Intersect(b), str))
	fmt.Println("a-b", Sorted(a.Diff(b), str))
	a.Remove("zig")
	fmt.Println(a.Has("zig"), a.Has("rust"))

	seen := SetOf(coord{0, 0})
	x, y := 0, 0
	for _, m := range "^>v<^^>>vv" {
		switch m {
		case '^':
			y++
		case 'v':
			y--
		case '>':
			x++
		case '<':
			x--
		}
		seen.Add(coord{x, y})
	}
	fmt.Println("visited", seen.Len())
	pts := Sorted(seen, func(a, b coord) bool {
		if a.x != b.x {
			return a.x < b.x
		}
		return a.y < b.y
	})
	fmt.Println(pts)
	fmt.Printf("%v %d,%d\n", pts[0], pts[len(pts)-1].x, pts[len(pts)-1].y)
}
