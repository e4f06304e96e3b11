package main

import (
	"fmt"
	"sync"
)

func main() {
	var once sync.Once
	for i := 0; i < 3; i++ {
		once.Do(func() { fmt.Println("init at", i) })
	}
	var fs []func()
	for i := 0; i < 3; i++ {
		fs = append(fs, sync.OnceFunc(func() { fmt.Println("oncefunc", i) }))
	}
	for _, f := range fs {
		f()
		f()
	}
}
