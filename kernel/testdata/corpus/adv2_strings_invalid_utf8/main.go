package main

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

type Field string

// badBytes reports the byte offsets of invalid UTF-8 in a log line, the
// way a sanitizer does before loading text into a warehouse.
func badBytes(s string) []int {
	var at []int
	for i, r := range s {
		if r == utf8.RuneError {
			if _, w := utf8.DecodeRuneInString(s[i:]); w == 1 {
				at = append(at, i)
			}
		}
	}
	return at
}

func truncateRunes(s Field, n int) Field {
	count := 0
	for i, r := range s {
		_ = r
		if count == n {
			return s[:i]
		}
		count++
	}
	return s
}

func columns(line string) map[rune]int {
	first := map[rune]int{}
	for i, r := range line {
		if _, ok := first[r]; !ok {
			first[r] = i
		}
	}
	return first
}

func main() {
	lines := []string{
		"ok: café",
		"bad: \xff\xfe tail",
		"mixed \xc0\x80 €5 \xe2\x82",
	}
	for _, l := range lines {
		fmt.Printf("%q valid=%v bad=%v runes=%d bytes=%d\n", l, utf8.ValidString(l), badBytes(l), utf8.RuneCountInString(l), len(l))
	}
	fmt.Printf("%q %q\n", truncateRunes(Field("a\xffbcdé"), 3), truncateRunes("héllo", 2))
	c := columns("x\xffy€z")
	fmt.Println(c['x'], c[utf8.RuneError], c['y'], c['€'], c['z'])
	var pos []string
	for i, r := range strings.ToValidUTF8("a\xffb", "\uFFFD") + "\xffc" {
		pos = append(pos, fmt.Sprintf("%d:%U", i, r))
	}
	fmt.Println(pos)
	var last int
	var lastRune rune
	for last, lastRune = range "end\x80" {
	}
	fmt.Println(last, lastRune)
}
