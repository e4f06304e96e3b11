// A division of untyped integer constants repeated with iota has one value
// per constant: the kernel cannot lower it in place and routes it.
package main

import "fmt"

type Level float64

const (
	L0 Level = iota / 2
	L1
	L2
	L3
	L4
)

func main() {
	fmt.Println(L0, L1, L2, L3, L4)
	var total Level
	for _, l := range []Level{L1, L2, L3} {
		total += l
	}
	fmt.Println(total)
}
