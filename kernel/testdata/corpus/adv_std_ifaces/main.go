package main

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

type IntHeap []int

func (h IntHeap) Len() int           { return len(h) }
func (h IntHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h IntHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *IntHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *IntHeap) Pop() any {
	old := *h
	n := len(old)
	x := old[n-1]
	*h = old[:n-1]
	return x
}

type Temp struct{ C float64 }

func (t Temp) String() string { return fmt.Sprintf("%.1f°C", t.C) }

type Node struct {
	Name     string  `json:"name"`
	Children []*Node `json:"children,omitempty"`
	Weight   float64 `json:"weight"`
}

type upper struct{ W io.Writer }

func (u upper) Write(p []byte) (int, error) {
	return u.W.Write(bytes.ToUpper(p))
}

type byLen []string

func (s byLen) Len() int           { return len(s) }
func (s byLen) Less(i, j int) bool { return len(s[i]) < len(s[j]) }
func (s byLen) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

type Number interface{ ~int | ~float64 }

func Sum[T Number](xs ...T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

type Pair[K comparable, V any] struct {
	Key K
	Val V
}

func (p Pair[K, V]) String() string { return fmt.Sprintf("%v=%v", p.Key, p.Val) }

func main() {
	h := &IntHeap{5, 2, 8}
	heap.Init(h)
	heap.Push(h, 1)
	for h.Len() > 0 {
		fmt.Print(heap.Pop(h), " ")
	}
	fmt.Println()
	t := Temp{21.5}
	fmt.Println(t, &t)
	fmt.Printf("%v %s\n", t, t)
	root := &Node{Name: "r", Weight: 1, Children: []*Node{{Name: "a", Weight: 0.5}, {Name: "b"}}}
	out, _ := json.Marshal(root)
	fmt.Println(string(out))
	var back Node
	if err := json.Unmarshal(out, &back); err != nil {
		fmt.Println(err)
	}
	fmt.Println(back.Name, len(back.Children), back.Children[0].Weight)
	var buf bytes.Buffer
	w := upper{&buf}
	fmt.Fprintf(w, "hello %d\n", 42)
	io.WriteString(w, "more\n")
	fmt.Print(buf.String())
	words := strings.Fields("ccc a bb dddd")
	sort.Sort(byLen(words))
	fmt.Println(words)
	sc := bufio.NewScanner(strings.NewReader("l1\nl2\nl3"))
	n := 0
	for sc.Scan() {
		n++
	}
	fmt.Println("lines", n)
	fmt.Println(Map([]int{1, 2, 3}, func(i int) string { return strings.Repeat("*", i) }))
	fmt.Println(Sum(1, 2, 3), Sum(1.5, 2.5))
	p := Pair[string, int]{"k", 1}
	fmt.Println(p, p.String())
}
