package main

import "fmt"

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

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

func (n *Node) InOrder(visit func(int)) {
	if n == nil {
		return
	}
	n.Left.InOrder(visit)
	visit(n.Val)
	n.Right.InOrder(visit)
}

func main() {
	fmt.Println(fib(20))
	var root *Node
	for _, v := range []int{5, 3, 8, 1, 4} {
		root = root.Insert(v)
	}
	root.InOrder(func(v int) { fmt.Print(v, " ") })
	fmt.Println()
}
