package main

import (
	"errors"
	"fmt"
	"os"
)

type point struct{ X, Y int }

func main() {
	fmt.Println(fmt.Sprint("a", 1, 2, "b", 3.5, true, "c"))
	fmt.Println(fmt.Sprint(1, 2), fmt.Sprint("x", "y"), fmt.Sprint(nil, nil), fmt.Sprint(errors.New("e"), 5))
	fmt.Print("no", "space", 1, 2, "\n")
	fmt.Print(1, "\n")
	fmt.Println(fmt.Sprintln("a", 1) == "a 1\n")

	var np *point
	var ns []int
	var nm map[string]int
	var ni any
	var nf func()
	var ne error
	fmt.Println(np, ns, nm, ni, nf == nil, ne)
	fmt.Printf("%v %v %v %v %d %s\n", np, ns, nm, ni, ns, ns)
	fmt.Printf("%+v %#v %#v %#v\n", &point{1, 2}, ns, nm, []string{"a"})
	fmt.Printf("%#v %#v %#v %#v\n", 42, "q\"", 3.0, map[string]int{"z": 1, "a": 2})
	p := &point{3, 4}
	pp := &p
	fmt.Println(p, *p, **pp)
	fmt.Printf("%v %+v\n", []*int{nil}, struct {
		A *point
		B []point
	}{nil, []point{{1, 1}}})

	fmt.Printf("%5.1f|%-8.3s|%08.3f|%+d|% d|%x|%X|%o|%b|%c|%U\n", 3.14159, "abcdef", -3.5, 7, 7, "hi", []byte{1, 171}, 64, 5, 'G', 'é')
	fmt.Printf("%*d|%-*d|%.*f\n", 5, 42, 4, 7, 2, 2.71828)
	fmt.Printf("%d %s\n", "str", 12)
	fmt.Printf("%d\n")
	fmt.Printf("%d %d\n", 1, 2, 3)
	fmt.Printf("%!\n")
	fmt.Printf("%[2]d %[1]d %d\n", 10, 20)
	fmt.Printf("%t %v %08b\n", false, 'x', 5)
	fmt.Printf("%6.2f%%\n", 12.3456)
	fmt.Printf("%e %E %g %G\n", 123456.789, 0.000123, 1e21, 1e-7)
	fmt.Printf("%q %v %x\n", []string{"a b", "c"}, [2]bool{true}, "")
	n, err := fmt.Fprintf(os.Stdout, "%s=%v\n", "k", []any{1, "two", 3.0, nil})
	fmt.Println(n, err)
	s := fmt.Sprintf("%3c|%-3c|%03d|%+.2e", 'x', 'y', -5, 12345.678)
	fmt.Println(s, len(s))
	fmt.Println(fmt.Sprintf("%T %T %T %T %T", 1, "s", 2.0, []int{}, map[string]bool{}))
	fmt.Println(fmt.Sprintf("%v|%6v|%-6v|", true, 12, "ab"))
}
