package main

import (
	"fmt"
	"unique"
)

func main() {
	a := unique.Make("hello")
	b := unique.Make("hel" + "lo")
	fmt.Println(a == b, a.Value())
}
