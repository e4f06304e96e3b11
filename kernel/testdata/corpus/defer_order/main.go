package main

import "fmt"

func count() (n int) {
	defer func() { n *= 2 }()
	n = 3
	return n
}

func main() {
	for i := 0; i < 3; i++ {
		defer fmt.Println("deferred", i)
	}
	fmt.Println("count", count())
}
