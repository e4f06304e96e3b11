// Generic constraints with methods and with type sets, generic functions
// over them, and a generic type whose methods call a constraint's method.
package main

import (
	"fmt"
	"strconv"
	"strings"
)

type Number interface {
	~int | ~int64 | ~float64
}

type Keyer interface {
	comparable
	Key() string
}

type SKU string

func (s SKU) Key() string { return "sku:" + string(s) }

type UserID int

func (u UserID) Key() string { return "user:" + strconv.Itoa(int(u)) }

func Index[K Keyer](items []K) map[string]K {
	out := map[string]K{}
	for _, it := range items {
		out[it.Key()] = it
	}
	return out
}

func Sum[T Number](xs ...T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

type Parser[T any] interface {
	Parse(string) (T, error)
}

type intParser struct{}

func (intParser) Parse(s string) (int, error) { return strconv.Atoi(s) }

func ParseAll[T any, P Parser[T]](p P, in []string) ([]T, []error) {
	var out []T
	var errs []error
	for _, s := range in {
		v, err := p.Parse(s)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, v)
	}
	return out, errs
}

type Set[T comparable] map[T]struct{}

func (s Set[T]) Add(v T)      { s[v] = struct{}{} }
func (s Set[T]) Has(v T) bool { _, ok := s[v]; return ok }
func (s Set[T]) Len() int     { return len(s) }

type Celsius float64

func Filter[T any](xs []T, keep func(T) bool) []T {
	var out []T
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

func main() {
	idx := Index([]SKU{"a1", "b2"})
	fmt.Println(len(idx), idx["sku:a1"])
	uidx := Index([]UserID{7, 9, 7})
	fmt.Println(len(uidx), uidx["user:9"])
	fmt.Println(Sum(1, 2, 3), Sum(1.5, 2.25), Sum[Celsius](10, 20.5), Sum[int64]())
	vals, errs := ParseAll[int](intParser{}, []string{"1", "x", "3"})
	fmt.Println(vals, len(errs), errs[0])
	s := Set[string]{}
	for _, w := range strings.Fields("a b a c b") {
		s.Add(w)
	}
	fmt.Println(s.Len(), s.Has("c"), s.Has("z"))
	evens := Filter([]int{1, 2, 3, 4, 5, 6}, func(n int) bool { return n%2 == 0 })
	long := Filter(strings.Fields("go is a fun language"), func(w string) bool { return len(w) > 2 })
	fmt.Println(evens, long)
}
