// A range over a string with the index alone gives byte offsets, where
// each rune starts. yaegi counted runes instead (for i := range "héllo"
// gave 0 1 2 3 4 for Go's 0 1 3 4 5), so cutting the string at those
// offsets split runes. The kernel decodes such a range natively.
package main

import (
	"fmt"
	"strings"
)

// columns returns the byte offset of each rune: where a fixed-width
// report would cut.
func columns(s string) []int {
	var out []int
	for i := range s {
		out = append(out, i)
	}
	return out
}

func main() {
	str := "héllo, 世界"
	for i := range str {
		fmt.Print(i, ":", str[i:], " ")
	}
	fmt.Println()
	fmt.Println(columns("añb€"), columns("plain"), columns(""), columns("a\xffb"))
	last := -1
	for last = range str {
	}
	fmt.Println(last, len(str))
	var fs []func() int
	for i := range "日本語" {
		fs = append(fs, func() int { return i })
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	fmt.Println()
	// Truncate to at most n runes, at a rune boundary.
	trunc := func(s string, n int) string {
		k := 0
	walk:
		for i := range s {
			if k == n {
				s = s[:i]
				break walk
			}
			k++
		}
		return s
	}
	fmt.Println(trunc("Zürich–Genève", 8), trunc("ab", 5))
	var b strings.Builder
	for i := range "ça va" {
		if i%2 == 1 {
			continue
		}
		fmt.Fprintf(&b, "%d,", i)
	}
	fmt.Println(b.String())
	n := 0
	for range str {
		n++
	}
	fmt.Println(n)
}
