package main

import "fmt"

type point struct{ X, Y int }

func main() {
	p := point{1, 2}
	fmt.Printf("%v %+v %#v %T\n", p, p, p, p)
	fmt.Printf("%t %c %U %x %X %o %b\n", true, 'G', 'G', 255, 255, 8, 5)
	fmt.Printf("%e %g %8.3f|%-8.3f|\n", 123456.789, 0.000012, 3.14159, 2.5)
	fmt.Printf("%s %q %x %10s|%-10s|\n", "str", "q", "hex", "right", "left")
	fmt.Printf("%p\n", nil)
	fmt.Printf("%v %v %v\n", []string{"a"}, map[string]int{"z": 1, "a": 2}, &p)
	s := fmt.Sprintf("%05d|%+d|%x", 42, 7, []byte("hi"))
	fmt.Println(s)
	fmt.Println(fmt.Sprint("a", 1, 2, "b"), fmt.Sprintln("x", 1))
	var e error = fmt.Errorf("wrapped: %w", fmt.Errorf("inner"))
	fmt.Printf("%v\n", e)
}
