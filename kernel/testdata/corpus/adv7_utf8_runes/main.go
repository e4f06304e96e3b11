package main

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

func isPalindrome(s string) bool {
	var clean []rune
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			clean = append(clean, r)
		}
	}
	for i := 0; i < len(clean)/2; i++ {
		if clean[i] != clean[len(clean)-1-i] {
			return false
		}
	}
	return true
}

func main() {
	s := "Hello, 世界! naïve café 🎉"
	fmt.Println(len(s), utf8.RuneCountInString(s), reverse(s))
	for i, r := range "aé世🎉" {
		fmt.Printf("%d:%c(%d,%U,%d) ", i, r, r, r, utf8.RuneLen(r))
	}
	fmt.Println()
	b := []byte("世界")
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		fmt.Printf("%c %d %v\n", r, size, b[:size])
		b = b[size:]
	}
	last, size := utf8.DecodeLastRuneInString("abc€")
	fmt.Println(string(last), size)
	bad := "a\xffb\xc0"
	fmt.Println(utf8.ValidString(bad), utf8.ValidString(s), []rune(bad), len([]rune(bad)))
	for i, r := range bad {
		fmt.Print(i, ":", r == utf8.RuneError, " ")
	}
	fmt.Println()
	fmt.Println(strings.ToValidUTF8(bad, "?"))
	buf := make([]byte, 0, 8)
	buf = utf8.AppendRune(buf, 'ß')
	buf = utf8.AppendRune(buf, 0x10FFFF+1)
	fmt.Println(buf, string(buf))
	fmt.Println(isPalindrome("A man, a plan, a canal: Panama"), isPalindrome("Go gopher"))
	fmt.Println(string(rune(65)), string(rune(0x4e16)), strings.ToUpper("straße"), strings.ToTitle("ǆ"))
	var counts [4]int
	for _, r := range "Go 1.22 is GREAT, isn't it?" {
		switch {
		case unicode.IsUpper(r):
			counts[0]++
		case unicode.IsLower(r):
			counts[1]++
		case unicode.IsDigit(r):
			counts[2]++
		case unicode.IsPunct(r) || unicode.IsSpace(r):
			counts[3]++
		}
	}
	fmt.Println(counts)
	x := 'a'
	x += 2
	var by byte = 'z'
	by++
	fmt.Println(x, string(x), by, string(by), 'a' < 'b', "abc"[1], string("abc"[1]))
	fmt.Println(unicode.In('λ', unicode.Greek), unicode.Is(unicode.Han, '世'), unicode.SimpleFold('A'), unicode.ToLower('Σ'))
	fmt.Println(strings.Map(func(r rune) rune {
		if r == 'a' {
			return -1
		}
		return unicode.ToUpper(r)
	}, "banana"))
	fmt.Println(strings.IndexRune("chicken", 'k'), strings.IndexByte("golang", 'l'), strings.IndexFunc("Hello世", unicode.IsUpper), strings.LastIndexAny("go gopher", "go"))
}
