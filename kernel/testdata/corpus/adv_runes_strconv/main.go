package main

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

func main() {
	s := "héllo, 世界!"
	fmt.Println(len(s), utf8.RuneCountInString(s), []rune(s)[7], string([]rune(s)[7:9]))
	for i, r := range "aé世" {
		fmt.Print(i, ":", string(r), "(", utf8.RuneLen(r), ") ")
	}
	fmt.Println()
	bad := string([]byte{0xff, 'a'})
	for _, r := range bad {
		fmt.Print(r == utf8.RuneError, " ")
	}
	fmt.Println(utf8.ValidString(bad), utf8.ValidString(s))
	r, size := utf8.DecodeRuneInString("世x")
	fmt.Println(string(r), size)
	lr, lsize := utf8.DecodeLastRuneInString(s)
	fmt.Println(string(lr), lsize)
	buf := utf8.AppendRune(nil, '€')
	fmt.Println(buf, len(buf))
	fmt.Println(s[1], s[1:3], string(s[1]))
	for _, in := range []string{"42", "-0", "+7", "0x1F", "1_000", "9223372036854775808", "abc", ""} {
		n, err := strconv.Atoi(in)
		fmt.Println(n, err)
	}
	n, err := strconv.ParseInt("0x1F", 0, 64)
	fmt.Println(n, err)
	n, err = strconv.ParseInt("1_000", 0, 64)
	fmt.Println(n, err)
	n, err = strconv.ParseInt("300", 10, 8)
	fmt.Println(n, err)
	u, err := strconv.ParseUint("-1", 10, 64)
	fmt.Println(u, err)
	f, err := strconv.ParseFloat("1e400", 64)
	fmt.Println(f, err)
	f, err = strconv.ParseFloat("  1.5", 64)
	fmt.Println(f, err)
	b, err := strconv.ParseBool("T")
	fmt.Println(b, err)
	fmt.Println(strconv.Quote("tab\there\"é"), strconv.QuoteToASCII("é"), strconv.QuoteRune('☺'))
	uq, err := strconv.Unquote(`"a\nb"`)
	fmt.Printf("%q %v\n", uq, err)
	_, err = strconv.Unquote("noquotes")
	fmt.Println(err)
	fmt.Println(strconv.FormatInt(-255, 16), strconv.FormatInt(5, 2), strconv.Itoa(-0), strconv.AppendInt([]byte("n="), 12, 10))
	fmt.Println(string(rune(65)), strconv.Itoa(65))
}
