package main

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

func main() {
	done := make(chan string, 3)
	for _, name := range []string{"a", "b", "c"} {
		time.AfterFunc(time.Millisecond, func() { done <- name })
	}
	var got []string
	for i := 0; i < 3; i++ {
		got = append(got, <-done)
	}
	sort.Strings(got)
	fmt.Println(strings.Join(got, ","))
	var out []string
	for i := 0; i < 3; i++ {
		defer func() { out = append(out, fmt.Sprint(i)) }()
	}
	func() {
		for i := 0; i < 3; i++ {
			defer fmt.Print(i, " ")
		}
	}()
	fmt.Println()
}
