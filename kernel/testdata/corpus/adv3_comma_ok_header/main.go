// A comma-ok in an if header whose value is read when it fails: the kernel
// cannot add a statement there, so it routes the block to compiled mode.
package main

import "fmt"

func main() {
	stock := map[string]int{"apple": 3}
	qty := 99
	var ok bool
	for _, item := range []string{"apple", "pear"} {
		if qty, ok = stock[item]; !ok {
			fmt.Println(item, "missing, qty", qty)
			continue
		}
		fmt.Println(item, qty)
	}
}
