// A range over an array ranges over a copy: changes to the array inside the
// loop are not seen by the value variable. Over a slice they are.
package main

import "fmt"

type Cell struct {
	Name string
	N    int
}

func main() {
	arr := [4]int{1, 2, 3, 4}
	for i, v := range arr {
		if i+1 < len(arr) {
			arr[i+1] += 10
		}
		fmt.Print(v, " ")
	}
	fmt.Println(arr)

	sl := []int{1, 2, 3, 4}
	for i, v := range sl {
		if i+1 < len(sl) {
			sl[i+1] += 10
		}
		fmt.Print(v, " ")
	}
	fmt.Println(sl)

	cells := [3]Cell{{"a", 1}, {"b", 2}, {"c", 3}}
	for i, c := range cells {
		c.N *= 100
		cells[i].Name += "!"
		fmt.Print(c, " ")
	}
	fmt.Println(cells)

	ptr := &arr
	for i := range ptr {
		ptr[i] = i
	}
	fmt.Println(arr, *ptr)
}
