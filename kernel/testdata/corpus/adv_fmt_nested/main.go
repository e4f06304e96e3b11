package main

import (
	"errors"
	"fmt"
)

type Point struct{ X, Y int }
type Line struct {
	From, To Point
	Tag      *string
	Meta     map[string]int
}

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("%.1f°", float64(t)) }

type PtrStringer struct{ n int }

func (p *PtrStringer) String() string { return fmt.Sprintf("PS(%d)", p.n) }

func main() {
	tag := "t"
	l := Line{Point{1, 2}, Point{3, 4}, &tag, map[string]int{"b": 2, "a": 1}}
	fmt.Printf("%v\n", l.From)
	fmt.Printf("%+v\n", l.To)
	fmt.Println(l.Meta)
	fmt.Printf("%v %+v\n", []Point{{1, 1}}, map[Point]string{{0, 1}: "b", {0, 0}: "a"})
	fmt.Printf("%T %T %T %T %T\n", 1, "s", 2.0, []any{1}, map[string][]int{})
	fmt.Printf("%T %T %T\n", errors.New("x"), struct{ A int }{}, (*int)(nil))
	fmt.Println(Temp(21.55), []Temp{1, 2})
	fmt.Printf("%v %s %d\n", Temp(3), Temp(4), 5)
	ps := PtrStringer{7}
	fmt.Println(&ps)
	fmt.Printf("%v\n", ps)
	var np *Point
	fmt.Println(np, []*int{nil})
	fmt.Printf("%5d|%-5d|%05d|%x|%o|%b|%c|%U\n", 42, 42, 42, 255, 8, 5, 'A', 'é')
	fmt.Printf("%8.3f|%-8.2f|%e|%g|%g\n", 3.14159, 2.5, 123456.789, 1e21, 0.000001)
	fmt.Printf("%q|%v|%t|%%|%s\n", "quo\"te", nil, true, []string{"a", "b"})
	fmt.Printf("%[2]d %[1]d\n", 1, 2)
	fmt.Printf("%d %s\n", "str", 5)
	fmt.Printf("%*d|%-*d|\n", 4, 1, 3, 2)
	fmt.Println(fmt.Sprint("a", 1, 2, "b", "c", 3.0), fmt.Sprintln("x", 1))
}
