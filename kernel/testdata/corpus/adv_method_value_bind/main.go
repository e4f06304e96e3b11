package main

import "fmt"

type V struct{ n int }

func (v V) Get() int   { return v.n }
func (v *V) PGet() int { return v.n }

type W struct{ *V }
type X struct{ V }

type Name string

func (n Name) String() string { return "name:" + string(n) }

func main() {
	v := V{1}
	f := v.Get
	v.n = 2
	fmt.Println(f())
	p := &V{1}
	g := p.Get
	p.n = 2
	fmt.Println(g())
	w := W{&V{1}}
	h := w.Get
	w.n = 2
	fmt.Println(h())
	x := X{V{1}}
	k := x.Get
	x.n = 2
	fmt.Println(k())
	pg := w.PGet
	w.n = 3
	fmt.Println(pg())
	fs := []func() int{v.Get}
	v.n = 9
	fmt.Println(fs[0]())
	var r fmt.Stringer = Name("ann")
	rs := r.String
	r = Name("bob")
	fmt.Println(rs(), r)
	for _, s := range []V{{1}, {2}} {
		ff := s.PGet
		fmt.Print(ff())
	}
}
