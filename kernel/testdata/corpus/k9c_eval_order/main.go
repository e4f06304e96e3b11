package main

import (
	"fmt"
	"strings"
)

var trace []string

func t(s string, v int) int { trace = append(trace, s); return v }

type Node struct {
	Val         int
	Left, Right *Node
}

func (n *Node) Insert(v int) *Node {
	if n == nil {
		return &Node{Val: v}
	}
	if v < n.Val {
		n.Left = n.Left.Insert(v)
	} else {
		n.Right = n.Right.Insert(v)
	}
	return n
}

func (n *Node) Walk(f func(int)) {
	if n == nil {
		return
	}
	n.Left.Walk(f)
	f(n.Val)
	n.Right.Walk(f)
}

type Op struct {
	Name string
	Fn   func(a, b int) int
}

func main() {
	a := []int{1, 2, 3}
	i := 0
	i, a[i] = 1, 9
	fmt.Println(i, a)
	a[0], a[2] = a[2], a[0]
	fmt.Println(a)
	x, y := 1, 2
	x, y = y, x+y
	fmt.Println(x, y)
	m := map[string]int{}
	m["a"] += 5
	m["a"]++
	m["b"] -= 2
	fmt.Println(m)
	_ = t("a", 1) + t("b", 2)*t("c", 3)
	fmt.Println(trace)
	xs := []int{1, 2}
	xs = append(xs, xs...)
	fmt.Println(xs)
	empty := append([]int(nil), xs[:0]...)
	fmt.Println(empty == nil, len(empty))
	b := make([]byte, 3)
	n := copy(b, "héllo")
	fmt.Println(n, b, string(b[:1]))

	var root *Node
	for _, v := range []int{5, 3, 8, 1, 4, 9} {
		root = root.Insert(v)
	}
	var sb strings.Builder
	root.Walk(func(v int) { fmt.Fprint(&sb, v, " ") })
	fmt.Println(sb.String())

	ops := []Op{{"add", func(a, b int) int { return a + b }}, {"mul", func(a, b int) int { return a * b }}}
	table := map[string]func(int) int{"double": func(v int) int { return v * 2 }}
	for _, op := range ops {
		fmt.Print(op.Name, "=", op.Fn(3, 4), " ")
	}
	fmt.Println(table["double"](21))
	type pair struct {
		A [2]int
		S string
	}
	fmt.Println(pair{[2]int{1, 2}, "x"} == pair{[2]int{1, 2}, "x"}, [2][2]int{{1}, {2}} == [2][2]int{{1}, {2}})
	for idx, ch := range []byte("hé") {
		fmt.Print(idx, ":", ch, " ")
	}
	fmt.Println()
loop:
	for k := 0; ; k++ {
		switch {
		case k == 1:
			continue
		case k > 3:
			break loop
		}
		fmt.Print("k", k, " ")
	}
	fmt.Println()
	for k := 0; k < 3; k++ {
		switch k {
		case 1:
			break
		default:
			fmt.Print("s", k, " ")
		}
	}
	fmt.Println()
	defer func() {
		r := recover()
		fmt.Println("shift panic:", r != nil)
	}()
	sh := -1
	fmt.Println(1 << sh)
}
