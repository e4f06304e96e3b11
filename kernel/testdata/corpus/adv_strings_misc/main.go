package main

import (
	"fmt"
	"strings"
	"unicode"
)

func main() {
	fmt.Printf("%q\n", strings.Fields("  a  b\tc\n d  "))
	before, after, found := strings.Cut("key=value=x", "=")
	fmt.Println(before, after, found)
	_, _, found = strings.Cut("novalue", "=")
	fmt.Println(found)
	fmt.Println(strings.EqualFold("Go", "GO"), strings.EqualFold("straße", "STRASSE"))
	var b strings.Builder
	for i := 3; i > 0; i-- {
		fmt.Fprintf(&b, "%d...", i)
	}
	b.WriteString("liftoff")
	b.WriteByte('!')
	b.WriteRune('🚀')
	fmt.Println(b.String(), b.Len())
	r := strings.NewReplacer("<", "&lt;", ">", "&gt;", "&", "&amp;")
	fmt.Println(r.Replace("<a href=\"x&y\">"))
	fmt.Println(strings.FieldsFunc("a1b22c333", unicode.IsDigit))
	fmt.Println(strings.Title("hello"), strings.ToTitle("hi"), strings.Map(func(r rune) rune {
		if r == 'a' {
			return -1
		}
		return unicode.ToUpper(r)
	}, "banana"))
	fmt.Println(strings.SplitN("a,b,c,d", ",", 2), strings.SplitAfter("a,b", ","))
	fmt.Println(strings.TrimFunc("123abc456", unicode.IsDigit), strings.TrimLeft("xxyxhi", "xy"), strings.TrimPrefix("prefix-x", "prefix-"))
	fmt.Println(strings.Count("cheese", "e"), strings.Count("five", ""), strings.LastIndex("go gopher", "go"))
	s, ok := strings.CutPrefix("v1.2.3", "v")
	fmt.Println(s, ok, strings.Repeat("=", 5))
	for part := range strings.SplitSeq("x|y|z", "|") {
		fmt.Print(part, ";")
	}
	fmt.Println()
}
