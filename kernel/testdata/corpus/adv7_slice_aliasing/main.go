package main

import (
	"fmt"
	"slices"
)

func appendOne(s []int) []int { return append(s, 1) }

func removeAt(s []int, i int) []int { return append(s[:i], s[i+1:]...) }

func main() {
	base := make([]int, 3, 10)
	a := append(base, 1)
	b := append(base, 2)
	fmt.Println(a, b, a[3] == b[3])

	full := base[:3:3]
	c := append(full, 1)
	d := append(full, 2)
	fmt.Println(c, d, len(full), cap(full))

	s := []int{0, 1, 2, 3, 4, 5}
	t := s[2:4]
	fmt.Println(t, len(t), cap(t))
	t = append(t, 100)
	fmt.Println(s, t)
	t = append(t, 200, 300, 400)
	t[0] = -1
	fmt.Println(s, t)

	r := removeAt([]int{1, 2, 3, 4}, 1)
	fmt.Println(r, len(r), cap(r))
	orig := []int{1, 2, 3, 4}
	r2 := removeAt(orig, 0)
	fmt.Println(orig, r2)

	grow := []int{1, 2}
	alias := grow
	grow = append(grow, 3) // over capacity: a new array
	grow[0] = 100
	fmt.Println(alias, grow)

	src := []int{1, 2, 3, 4, 5}
	n := copy(src[1:], src)
	fmt.Println(n, src)
	dst := make([]int, 2)
	fmt.Println(copy(dst, []int{9, 8, 7}), dst)
	bs := make([]byte, 3)
	fmt.Println(copy(bs, "héllo"), bs)

	matrix := make([][]int, 3)
	row := make([]int, 9)
	for i := range matrix {
		matrix[i] = row[i*3 : (i+1)*3]
	}
	matrix[1][1] = 5
	fmt.Println(row, matrix)

	x := []string{"a", "b", "c", "d"}
	y := x[1:3]
	y = slices.Insert(y, 1, "X")
	fmt.Println(x, y)
	z := slices.Clip(x[:2])
	z = append(z, "Z")
	fmt.Println(x, z)
	var nilS []int
	empty := []int{}
	fmt.Println(nilS == nil, empty == nil, len(nilS), appendOne(nilS), slices.Equal(nilS, empty))
	q := []int{1, 2, 3}
	for i, v := range q {
		if i == 0 {
			q = append(q, 4)
			q[2] = 30
		}
		fmt.Print(v, " ")
	}
	fmt.Println(q)
	ss := s[:0]
	for _, v := range s {
		if v%2 == 0 {
			ss = append(ss, v)
		}
	}
	fmt.Println(ss, s)
	slices.Reverse(ss)
	fmt.Println(ss, slices.Index(s, 100))
}
