package main

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
)

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

func main() {
	s := "  Hello, Wörld! Ünïcode ✓  "
	fmt.Println(strings.TrimSpace(s), strings.ToUpper(s), strings.Title("go lang"))
	fmt.Println(strings.Fields(s), len(strings.Split("a,b,,c", ",")), strings.SplitN("a=b=c", "=", 2))
	fmt.Println(strings.EqualFold("Straße", "STRASSE"), strings.EqualFold("Go", "GO"), strings.Count("cheese", "e"), strings.Count("abc", ""))
	fmt.Println(strings.Map(func(r rune) rune {
		if unicode.IsPunct(r) {
			return -1
		}
		return unicode.ToUpper(r)
	}, s))
	fmt.Println(reverse("héllo✓"), strings.Repeat("ab", 3), strings.Replace("aaaa", "a", "b", 2), strings.ReplaceAll("aaaa", "aa", "b"))
	fmt.Println(strings.Index("chicken", "ken"), strings.LastIndex("go gopher", "go"), strings.IndexRune("chicken", 'k'), strings.IndexByte("abc", 'c'), strings.IndexFunc("ab1", unicode.IsDigit))
	fmt.Println(strings.HasPrefix(s, "  H"), strings.TrimLeft("xxhixx", "x"), strings.TrimSuffix("file.go", ".go"), strings.TrimFunc("123abc456", unicode.IsDigit))
	before, after, found := strings.Cut("key=value=x", "=")
	fmt.Println(before, after, found)
	r := strings.NewReplacer("<", "&lt;", ">", "&gt;")
	fmt.Println(r.Replace("<b>hi</b>"))
	var b bytes.Buffer
	b.WriteString("abc")
	b.WriteByte('-')
	b.WriteRune('é')
	fmt.Fprintf(&b, "%03d", 7)
	fmt.Println(b.String(), b.Len(), bytes.Contains(b.Bytes(), []byte("c-")))
	fmt.Println(strings.Compare("a", "b"), "a" < "b", "Z" < "a", "é" > "z")
	for i, w := range strings.Fields("the quick brown fox") {
		fmt.Print(i, "=", w[:1], " ")
	}
	fmt.Println()
	bs := []byte("hello")
	fmt.Println(bytes.ToUpper(bs), string(bytes.Title(bs)), bytes.Equal([]byte("a"), []byte("a")))
	fmt.Printf("%q\n", strings.SplitAfter("a,b,c", ","))
	fmt.Println(strings.ContainsAny("hello", "xyz"), strings.ContainsRune("héllo", 'é'), len("✓"), []byte("✓"))
}
