package main

import "fmt"

type Shape interface{ Area() float64 }

func safe(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint("recovered: ", r)
		}
	}()
	f()
	return "ok"
}

func main() {
	fmt.Println(safe(func() {}))
	fmt.Println(safe(func() {
		var s Shape
		fmt.Println(s.Area())
	}))
	fmt.Println(safe(func() {
		xs := []int{1, 2, 3}
		i := 5
		fmt.Println(xs[i])
	}))
}
