package main

import (
	"fmt"
)

type Point struct {
	X, Y int
}

type Rect struct {
	Min, Max Point
	Label    string
}

type Grid [2][3]int

type Celsius float64

type Names []string

type Pair struct {
	Key   string
	Value *int
}

func main() {
	p := Point{1, -2}
	r := Rect{Point{0, 0}, Point{3, 4}, "box"}
	fmt.Printf("%v|%+v\n", p, p)
	fmt.Printf("%v|%+v\n", r, r)
	fmt.Printf("%v %d %x\n", Grid{{1, 2, 3}, {4, 5, 6}}, Grid{{1}}, Grid{{10, 11}})
	fmt.Printf("%v %.1f %6.2f|%-8.3f|\n", Celsius(21.5), Celsius(21.55), Celsius(-3), Celsius(1))
	fmt.Printf("%v %q %d\n", Names{"a", "b c"}, Names{"x", "y"}, len(Names{}))
	v := 5
	pp := Pair{"k", &v}
	fmt.Printf("%v %v\n", pp.Key, *pp.Value)
	fmt.Printf("%5d|%-5d|%05d|%+d|%x|%X|%o|%O|%b|%c|%U\n", 42, 42, 42, 42, 255, 255, 8, 8, 5, 'G', 'G')
	fmt.Printf("%8.3f|%-8.2f|%e|%E|%g|%G\n", 3.14159, 2.5, 123456.789, 0.000123, 1e21, 1e-7)
	fmt.Printf("%s|%10s|%-10s|%.2s|%q|%x|% x|%X\n", "go", "right", "left", "trunc", "q\"t", "hi", "hi", "hi")
	fmt.Printf("%t %v %p\n", true, false, nil)
	fmt.Printf("%v %v %v\n", []int(nil), map[string]int(nil), []string{})
	fmt.Printf("%v %+v\n", struct {
		A int
		B []string
	}{1, []string{"x"}}, struct{ P *int }{nil})
	fmt.Printf("%3c|%-3c|%q|%#q|%#x|%#o\n", 'x', 'y', 'z', "back`tick", 255, 8)
	fmt.Printf("%*d|%-*d|%.*f\n", 5, 1, 4, 2, 2, 3.14159)
	fmt.Printf("%[2]d %[1]d %d\n", 10, 20)
	fmt.Printf("%d %s\n", "str", 5)
	fmt.Printf("%d\n")
	fmt.Printf("%d %d\n", 1, 2, 3)
	fmt.Println(fmt.Sprint("a", 1, 2, "b", "c", 3.5, nil), fmt.Sprintln("x", 1))
	fmt.Printf("%v %.2v %10.4v|\n", 1.0/3, 1.0/3, 2.0/3)
	fmt.Printf("%x %X %x\n", []byte("abc"), []byte{1, 171}, "ÿ")
	fmt.Printf("%08.3f|%+.2e|% d|% d\n", -3.14159, 12345.678, 5, -5)
	fmt.Printf("%v %v\n", int8(-128), uint64(1<<63))
	fmt.Printf("%6.2f%%\n", 99.5)
	var ip *int
	fmt.Println(ip == nil, fmt.Sprintf("%v", ip))
	fmt.Printf("%v %v\n", complex(1, -2), [3]bool{true})
}
