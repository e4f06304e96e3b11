package main

import (
	"errors"
	"fmt"
)

type V struct{ n int }

func (v V) String() string { return fmt.Sprintf("V%d", v.n) }

type P struct{ n int }

func (p *P) String() string { return fmt.Sprintf("P%d", p.n) }

type E struct{ msg string }

func (e *E) Error() string { return "E:" + e.msg }

type Both struct{}

func (Both) String() string { return "stringer" }
func (Both) Error() string  { return "error wins" }

type Fmt struct{}

func (Fmt) Format(f fmt.State, verb rune) { fmt.Fprintf(f, "F<%c>", verb) }

type GoS struct{ a int }

func (GoS) GoString() string { return "GoS!" }

func find(fail bool) error {
	var e *E
	if fail {
		e = &E{"x"}
	}
	if e == nil {
		return nil
	}
	return e
}

func main() {
	v, p := V{1}, P{2}
	fmt.Println(v, &v, p, &p)
	fmt.Printf("%v %s %d\n", v, &p, v)
	fmt.Println([]V{{3}}, []*P{{4}}, map[string]V{"k": {5}})
	var s fmt.Stringer = v
	fmt.Println(s)
	s = &p
	fmt.Println(s)
	fmt.Println(Both{})
	fmt.Printf("%v %d %s\n", Fmt{}, Fmt{}, Fmt{})
	fmt.Printf("%#v %v\n", GoS{}, GoS{})
	fmt.Println(find(true), find(false) == nil)
	err := fmt.Errorf("wrap: %w", find(true))
	var target *E
	fmt.Println(errors.As(err, &target), target.msg)
	var np *P
	fmt.Println(fmt.Sprint(np) != "")
	type named V
	fmt.Println(named{6})
}
