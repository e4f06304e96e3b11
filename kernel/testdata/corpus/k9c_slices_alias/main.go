package main

import "fmt"

func main() {
	s := make([]int, 3, 10)
	t := append(s, 4)
	u := append(s, 5)
	fmt.Println(s, t, u, len(t), cap(t))

	a := []int{1, 2, 3}
	b := a[:2]
	b = append(b, 99)
	fmt.Println(a, b)
	b = append(b, 100)
	b[0] = -1
	fmt.Println(a, b)

	full := a[0:2:2]
	full = append(full, 7)
	full[0] = 0
	fmt.Println(a, full)

	grid := make([][]int, 3)
	row := make([]int, 3)
	for i := range grid {
		grid[i] = row
	}
	grid[0][0] = 1
	fmt.Println(grid)

	var ss [][]string
	cur := []string{}
	for _, w := range []string{"a", "b", "|", "c", "|", "d", "e"} {
		if w == "|" {
			ss = append(ss, cur)
			cur = cur[:0]
			continue
		}
		cur = append(cur, w)
	}
	ss = append(ss, cur)
	fmt.Println(ss)

	x := []int{1, 2, 3, 4, 5}
	copy(x[1:], x)
	fmt.Println(x)
	y := []int{1, 2, 3, 4, 5}
	y = append(y[:1], y[2:]...)
	fmt.Println(y, len(y), cap(y))
	var nilS []int
	fmt.Println(nilS == nil, len(nilS), append(nilS, 1))
	str := "héllo"
	bs := []byte(str)
	bs[0] = 'H'
	fmt.Println(str, string(bs))
}
