// Runes and unicode classes: invalid UTF-8 in a range, utf8 decoding,
// case folding, and classes a text cleaner uses.
package main

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

func main() {
	s := "Go\xffé\xe2\x82世!"
	for i, r := range s {
		fmt.Printf("%d:%q(%d) ", i, r, utf8.RuneLen(r))
	}
	fmt.Println()
	fmt.Println(len(s), utf8.RuneCountInString(s), utf8.ValidString(s), []rune(s))
	b := []byte(s)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		fmt.Print(r == utf8.RuneError, size, " ")
		b = b[size:]
	}
	fmt.Println()
	r, size := utf8.DecodeLastRuneInString("añ")
	fmt.Println(string(r), size, utf8.FullRune([]byte{0xe4, 0xb8}))
	buf := utf8.AppendRune(nil, '€')
	fmt.Println(buf, string(rune(0x10FFFF+1)) == "\uFFFD", string(rune(-1)))
	fmt.Println(strings.ToValidUTF8(s, "?"), strings.ToUpper("straße"), strings.ToLower("İ"))

	text := "Hello, Wörld! 123 ٣ Ⅻ ½ \t中文 ǅ"
	var classes []string
	for _, r := range text {
		c := ""
		switch {
		case unicode.IsUpper(r):
			c = "U"
		case unicode.IsLower(r):
			c = "l"
		case unicode.IsDigit(r):
			c = "d"
		case unicode.IsNumber(r):
			c = "n"
		case unicode.IsSpace(r):
			c = "_"
		case unicode.IsPunct(r):
			c = "p"
		case unicode.Is(unicode.Han, r):
			c = "H"
		case unicode.IsTitle(r):
			c = "T"
		default:
			c = "?"
		}
		classes = append(classes, c)
	}
	fmt.Println(strings.Join(classes, ""))
	fmt.Println(unicode.SimpleFold('A'), unicode.SimpleFold('k'), unicode.SimpleFold('K'), unicode.ToTitle('ǆ'))
	fmt.Println(strings.EqualFold("Straße", "STRASSE"), strings.EqualFold("Gopher", "GOPHER"), strings.EqualFold("K", "k"))
	clean := strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		if unicode.IsSpace(r) {
			return ' '
		}
		return unicode.ToLower(r)
	}, "A\tB\x00C\nD")
	fmt.Printf("%q\n", clean)
	fmt.Println(strings.IndexFunc("abc1", unicode.IsDigit), strings.LastIndexFunc("1abc", unicode.IsLetter), strings.TrimFunc("123abc456", unicode.IsDigit))
	fmt.Println(unicode.In('é', unicode.Latin, unicode.Greek), unicode.In('λ', unicode.Latin), unicode.IsOneOf([]*unicode.RangeTable{unicode.Cyrillic}, 'ж'))
}
