// A method value binds its receiver when it is evaluated: a value receiver
// is copied then, a pointer receiver sees later changes.
package main

import "fmt"

type Acc struct{ total int }

func (a Acc) Total() int { return a.total }
func (a *Acc) Add(n int) { a.total += n }
func (a *Acc) Peek() int { return a.total }

type Op func(int)

func apply(ops []Op, n int) {
	for _, op := range ops {
		op(n)
	}
}

func main() {
	a := Acc{total: 1}
	val := a.Total
	ptr := a.Peek
	add := a.Add
	add(10)
	a.total += 100
	fmt.Println(val(), ptr(), a.Total())

	accs := []Acc{{1}, {2}, {3}}
	var getters []func() int
	for _, x := range accs {
		getters = append(getters, x.Total)
	}
	var adders []Op
	for i := range accs {
		adders = append(adders, accs[i].Add)
	}
	apply(adders, 5)
	for _, g := range getters {
		fmt.Print(g(), " ")
	}
	fmt.Println(accs)

	fns := map[string]func() int{}
	b := Acc{7}
	fns["before"] = b.Total
	b.total = 8
	fns["after"] = b.Total
	fmt.Println(fns["before"](), fns["after"]())
}
