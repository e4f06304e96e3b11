package main

import (
	"fmt"
	"sync"
)

func main() {
	calls := 0
	get := sync.OnceValue(func() int {
		calls++
		return 42
	})
	fmt.Println(get(), get(), calls)
}
