package main

import (
	"fmt"
	"sort"
	"strings"
)

type Celsius float64

// median prints debugging lines with the builtins, as one does while
// working something out: they go to stderr, never into the output.
func median(xs []float64) float64 {
	println("median of", len(xs), "values")
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	mid := len(s) / 2
	print("mid=", mid, "\n")
	if len(s)%2 == 0 {
		println("even:", s[mid-1], s[mid])
		return (s[mid-1] + s[mid]) / 2
	}
	return s[mid]
}

func main() {
	fmt.Println("median:", median([]float64{5, 1, 4, 2}))
	fmt.Println("median:", median([]float64{3, 9, 1}))
	words := strings.Fields("b a c")
	for i, w := range words {
		println(i, w, len(w) > 0)
	}
	sort.Strings(words)
	fmt.Println(words)
	var t Celsius = 21.5
	println("temp", t, float32(1)/3, 'x', uint8(200), -7)
	println()
	total := 0
	for i := 1; i <= 4; i++ {
		total += i
		print(total, " ")
	}
	println()
	fmt.Printf("total %d\n", total)
	println := func(args ...any) { fmt.Println(append([]any{"mine:"}, args...)...) }
	println("a local println prints to stdout", 1)
}
