// m[k], err = f() in an if header: yaegi never writes the map element,
// and the kernel cannot move the assignment out of the header, so the
// block is refused at it.
package main

import (
	"fmt"
	"strconv"
)

func main() {
	counts := map[string]int{}
	for _, s := range []string{"3", "x", "5"} {
		var err error
		if counts[s], err = strconv.Atoi(s); err != nil {
			fmt.Println("skip", s)
			delete(counts, s)
		}
	}
	fmt.Println(counts)
}
