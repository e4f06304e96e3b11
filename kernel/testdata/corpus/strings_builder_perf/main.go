package main

import (
	"fmt"
	"strings"
)

func main() {
	var b strings.Builder
	for i := 0; i < 1000; i++ {
		b.WriteString("x")
	}
	fmt.Println(b.Len())
	words := make([]string, 0, 100)
	for i := 0; i < 100; i++ {
		words = append(words, fmt.Sprintf("w%02d", i))
	}
	joined := strings.Join(words, "")
	fmt.Println(len(joined), joined[:12], strings.Count(joined, "w"))
}
