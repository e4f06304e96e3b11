package main

import (
	"fmt"
	"strconv"
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

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := range s {
		if i == n {
			return s[:k] + "…"
		}
		i++
	}
	return s
}

func main() {
	words := []string{"hello", "héllo", "日本語", "👋🏽 hi", "a\tb", "bad\xffbyte", ""}
	for _, w := range words {
		fmt.Printf("%-14q bytes=%2d runes=%2d valid=%-5t rev=%q\n", w, len(w), utf8.RuneCountInString(w), utf8.ValidString(w), reverse(w))
	}
	s := "Grüße, 世界!"
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		fmt.Printf("%c:%d:%U ", r, size, r)
		s = s[size:]
	}
	fmt.Println()
	last, size := utf8.DecodeLastRuneInString("añ")
	fmt.Println(string(last), size, utf8.RuneLen('€'), utf8.RuneLen(-1))
	buf := utf8.AppendRune(nil, '世')
	fmt.Println(buf, utf8.FullRune(buf[:2]))

	fmt.Println(strconv.Quote("tab\there \"q\" ☺\x00"), strconv.QuoteToASCII("☺ é"), strconv.QuoteRune('\n'))
	for _, q := range []string{`"a\nb"`, "`raw\\n`", `'x'`, `"bad`, `"\u00e9"`} {
		u, err := strconv.Unquote(q)
		fmt.Printf("%s -> %q %v\n", q, u, err)
	}
	fmt.Println(string(strconv.AppendQuote([]byte("x="), "y")), strconv.CanBackquote("a`b"))
	fmt.Println(truncate("héllo wörld", 5), truncate("short", 10))
	caps := strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return unicode.ToTitle(r)
	}, "go is ǆ fun")
	fmt.Println(caps, strings.EqualFold("Straße", "STRASSE"), strings.EqualFold("Gö", "GÖ"))
	fmt.Printf("%x % x %X\n", "hé", "hé", []byte("ok"))
	fmt.Printf("%+q %#q %#U\n", "é☺", "back`tick", '☺')
}
