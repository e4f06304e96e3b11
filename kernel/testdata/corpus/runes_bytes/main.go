package main

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"
)

func main() {
	s := "héllo, 世界"
	fmt.Println(len(s), utf8.RuneCountInString(s))
	for i, r := range "añb" {
		fmt.Print(i, ":", string(r), " ")
	}
	fmt.Println()
	up := 0
	for _, r := range "Hello World" {
		if unicode.IsUpper(r) {
			up++
		}
	}
	fmt.Println(up, unicode.IsDigit('5'), string(unicode.ToUpper('q')))
	var buf bytes.Buffer
	buf.WriteString("abc")
	buf.WriteByte('-')
	buf.Write([]byte("def"))
	fmt.Println(buf.String(), bytes.Contains(buf.Bytes(), []byte("c-d")), bytes.ToUpper([]byte("x")))
	rs := []rune(s)
	fmt.Println(string(rs[len(rs)-2:]))
}
