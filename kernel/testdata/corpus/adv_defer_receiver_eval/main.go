package main

import (
	"fmt"
	"sync"
)

type V struct{ n int }

func (v V) Show()   { fmt.Println("show", v.n) }
func (v *V) PShow() { fmt.Println("pshow", v.n) }

func deferred() {
	v := V{1}
	defer v.Show()
	p := &V{10}
	defer p.Show()
	defer p.PShow()
	v.n = 2
	p.n = 20
	p = &V{30}
}

func main() {
	deferred()
	arr := [3]int{1, 2, 3}
	for i, v := range arr {
		arr[2] = 9
		fmt.Print(i, v, " ")
	}
	fmt.Println(arr)
	sl := []int{1, 2, 3}
	for i, v := range sl {
		sl[2] = 9
		fmt.Print(i, v, " ")
	}
	fmt.Println()
	type P struct{ x int }
	ps := [2]P{{1}, {2}}
	qs := ps
	qs[0].x = 100
	fmt.Println(ps, qs)
	m := map[string]P{"a": {1}}
	e := m["a"]
	e.x = 5
	fmt.Println(m["a"], e)
	a := []int{1, 2, 3}
	i, j := 0, 2
	a[i], a[j] = a[j], a[i]
	i, a[i] = 1, 7
	fmt.Println(a, i)
	var wg sync.WaitGroup
	w := V{1}
	wg.Add(1)
	go func(v V) { defer wg.Done(); v.Show() }(w)
	w.n = 5
	wg.Wait()
	x := 1
	switch {
	case x > 0:
		fmt.Println("pos")
		fallthrough
	case x > 10:
		fmt.Println("fell")
	default:
		fmt.Println("no")
	}
	s := ""
	for k := range 3 {
		s += fmt.Sprint(k)
	}
	fmt.Println(s)
	type Inner struct{ vals []int }
	type Outer struct{ in Inner }
	o1 := Outer{Inner{[]int{1}}}
	o2 := o1
	o2.in.vals[0] = 9
	o2.in.vals = append(o2.in.vals, 2)
	fmt.Println(o1, o2)
}
