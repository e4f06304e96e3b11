// strings helpers a parser uses: Cut, CutPrefix, Fields, FieldsFunc,
// SplitN, SplitAfter, Replacer, Title-casing by hand, Builder.
package main

import (
	"fmt"
	"strings"
	"unicode"
)

func main() {
	for _, kv := range []string{"key=value", "k==v", "novalue", "=empty", ""} {
		k, v, ok := strings.Cut(kv, "=")
		fmt.Printf("%q %q %v\n", k, v, ok)
	}
	after, ok := strings.CutPrefix("s3://bucket/key", "s3://")
	fmt.Println(after, ok)
	before, ok := strings.CutSuffix("file.csv.gz", ".gz")
	fmt.Println(before, ok)
	_, ok = strings.CutSuffix("file.csv", ".gz")
	fmt.Println(ok)
	fmt.Printf("%q\n", strings.Fields("  a \t b\n\u00a0c\u2003 "))
	fmt.Printf("%q\n", strings.FieldsFunc("a1b22c333", unicode.IsDigit))
	fmt.Printf("%q\n", strings.SplitN("a,b,c,d", ",", 2))
	fmt.Printf("%q\n", strings.SplitN("a,b", ",", 0))
	fmt.Printf("%q\n", strings.SplitAfter("a,b,c", ","))
	fmt.Printf("%q\n", strings.Split("abc", ""))
	fmt.Printf("%q\n", strings.Split("", ","))
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "a", "A", "aa", "X")
	fmt.Println(r.Replace("<a href>aa & b</a>"))
	fmt.Println(strings.Replace("aaaa", "a", "b", 2), strings.ReplaceAll("aaaa", "aa", "b"), strings.Replace("abc", "", "-", -1))
	fmt.Println(strings.Count("cheese", "e"), strings.Count("five", ""), strings.Index("chicken", "ken"), strings.LastIndex("go gopher", "go"), strings.IndexAny("golang", "nl"), strings.IndexByte("abc", 'c'), strings.IndexRune("chicken", 'k'))
	fmt.Println(strings.TrimLeft("xxhixx", "x"), strings.TrimPrefix("xxhixx", "x"), strings.Trim("  \t hi \n", " \t\n"), strings.TrimSpace("\u2000 hi \u3000"), strings.TrimRight("abccc", "c"))
	words := strings.Fields("the quick BROWN fox")
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + strings.ToLower(w[1:])
	}
	fmt.Println(strings.Join(words, " "))
	var sb strings.Builder
	for i := 0; i < 5; i++ {
		if sb.Len() > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, "%d", i*i)
	}
	sb.WriteRune('✓')
	fmt.Println(sb.String(), sb.Len())
	fmt.Println(strings.Repeat("=-", 5), strings.HasPrefix("prefix", "pre"), strings.HasSuffix("x.go", ".go"), strings.ContainsAny("abc", "xyzc"), strings.ContainsRune("abc", 'b'))
	fmt.Println(strings.Compare("a", "b"), strings.Compare("b", "a"), strings.Compare("x", "x"), "abc" < "abd", "Z" < "a")
	fmt.Println(strings.Title("hello world"), strings.ContainsFunc("abc", unicode.IsUpper))
	lines := strings.Split(strings.TrimRight("a\nb\n\nc\n", "\n"), "\n")
	fmt.Println(len(lines), lines)
}
