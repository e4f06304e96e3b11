package main

import (
	"container/heap"
	"container/list"
	"container/ring"
	"fmt"
	"math/big"
	"sort"
)

type Item struct {
	value    string
	priority int
	index    int
}

type PQ []*Item

func (pq PQ) Len() int { return len(pq) }
func (pq PQ) Less(i, j int) bool {
	if pq[i].priority == pq[j].priority {
		return pq[i].value < pq[j].value
	}
	return pq[i].priority > pq[j].priority
}
func (pq PQ) Swap(i, j int) {
	pq[i], pq[j] = pq[j], pq[i]
	pq[i].index = i
	pq[j].index = j
}
func (pq *PQ) Push(x any) {
	it := x.(*Item)
	it.index = len(*pq)
	*pq = append(*pq, it)
}
func (pq *PQ) Pop() any {
	old := *pq
	n := len(old)
	it := old[n-1]
	old[n-1] = nil
	it.index = -1
	*pq = old[:n-1]
	return it
}
func (pq *PQ) update(it *Item, p int) {
	it.priority = p
	heap.Fix(pq, it.index)
}

type IntHeap []int

func (h IntHeap) Len() int           { return len(h) }
func (h IntHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h IntHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *IntHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *IntHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func kSmallest(xs []int, k int) []int {
	h := &IntHeap{}
	for _, x := range xs {
		heap.Push(h, -x)
		if h.Len() > k {
			heap.Pop(h)
		}
	}
	out := make([]int, 0, k)
	for h.Len() > 0 {
		out = append(out, -heap.Pop(h).(int))
	}
	sort.Ints(out)
	return out
}

func main() {
	items := map[string]int{"banana": 3, "apple": 2, "pear": 4, "kiwi": 3}
	pq := make(PQ, 0)
	names := []string{"banana", "apple", "pear", "kiwi"}
	refs := map[string]*Item{}
	for _, n := range names {
		it := &Item{value: n, priority: items[n]}
		refs[n] = it
		heap.Push(&pq, it)
	}
	pq.update(refs["apple"], 5)
	heap.Remove(&pq, refs["pear"].index)
	for pq.Len() > 0 {
		it := heap.Pop(&pq).(*Item)
		fmt.Printf("%s:%d ", it.value, it.priority)
	}
	fmt.Println()
	fmt.Println(kSmallest([]int{9, 4, 7, 1, 8, 2, 6}, 3))
	h := &IntHeap{5, 2, 8}
	heap.Init(h)
	fmt.Println((*h)[0], h.Len())

	l := list.New()
	e4 := l.PushBack(4)
	l.PushFront(1)
	l.InsertBefore(3, e4)
	l.InsertAfter(5, e4)
	l.MoveToFront(e4)
	for e := l.Front(); e != nil; e = e.Next() {
		fmt.Print(e.Value, " ")
	}
	fmt.Println(l.Len())
	rg := ring.New(4)
	for i := 0; i < rg.Len(); i++ {
		rg.Value = i * i
		rg = rg.Next()
	}
	sum := 0
	rg.Do(func(v any) { sum += v.(int) })
	fmt.Println(sum, rg.Move(2).Value)

	f := new(big.Int)
	f.MulRange(1, 30)
	fmt.Println(f, f.BitLen(), len(f.String()))
	a, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	b := big.NewInt(987654321)
	q, m := new(big.Int).QuoRem(a, b, new(big.Int))
	fmt.Println(q, m, a.Cmp(b), new(big.Int).Exp(big.NewInt(2), big.NewInt(100), nil))
	fmt.Println(new(big.Int).GCD(nil, nil, big.NewInt(84), big.NewInt(36)), big.NewInt(97).ProbablyPrime(10), new(big.Int).Neg(b).Text(16))
	fmt.Println(new(big.Int).Div(big.NewInt(-7), big.NewInt(2)), new(big.Int).Quo(big.NewInt(-7), big.NewInt(2)), new(big.Int).Mod(big.NewInt(-7), big.NewInt(2)), new(big.Int).Rem(big.NewInt(-7), big.NewInt(2)))
	r := big.NewRat(3, 4)
	r.Add(r, big.NewRat(1, 6))
	fmt.Println(r, r.FloatString(5), new(big.Rat).SetFloat64(0.1).String())
	x := new(big.Float).SetPrec(100).SetInt64(2)
	x.Sqrt(x)
	fmt.Println(x.Text('f', 30), x.Prec())
	fib := []*big.Int{big.NewInt(0), big.NewInt(1)}
	for i := 2; i <= 100; i++ {
		fib = append(fib, new(big.Int).Add(fib[i-1], fib[i-2]))
	}
	fmt.Printf("%v %x %s\n", fib[100], fib[50], fib[90].String())
}
