package main

import "fmt"

func pairs(yield func(string, int) bool) {
	for i, s := range []string{"a", "b"} {
		if !yield(s, i) {
			return
		}
	}
}

func main() {
	for k, v := range pairs {
		fmt.Println(k, v)
	}
}
