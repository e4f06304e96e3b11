package main

import (
	"fmt"
	"strings"
)

type string2 = string

func count(items []string) (len int) {
	for range items {
		len++
	}
	return
}

func main() {
	len := func(s string) int { return strings.Count(s, "") - 1 }
	fmt.Println(len("héllo"))
	{
		copy := "not a builtin"
		new := 3
		cap, append := new*2, copy+"!"
		fmt.Println(copy, new, cap, append)
	}
	true := false
	fmt.Println(true, !true)
	nil := 0
	fmt.Println(nil + 1)
	var iota = 7
	fmt.Println(iota)
	fmt.Println(count([]string{"a", "b", "c"}))
	type int struct{ v string2 }
	x := int{"shadowed int"}
	fmt.Println(x.v)
	string := []byte("bytes")
	fmt.Println(cap(string) >= 5, string[0])
	print := fmt.Sprintf
	fmt.Println(print("%03d", 7))
	max := 10
	for i := 0; i < max; i += 4 {
		fmt.Print(i, " ")
	}
	fmt.Println()
	fmt := "shadowed package"
	_ = fmt
	println2(fmt)
}

func println2(s string) { fmt.Println("via helper:", s) }
