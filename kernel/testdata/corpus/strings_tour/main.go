package main

import (
	"fmt"
	"strings"
)

func main() {
	s := "  The quick brown fox  "
	t := strings.TrimSpace(s)
	fmt.Println(strings.ToUpper(t), strings.ToLower(t))
	fmt.Println(strings.Fields(t), len(strings.Split(t, " ")))
	fmt.Println(strings.Contains(t, "quick"), strings.HasPrefix(t, "The"), strings.HasSuffix(t, "fox"))
	fmt.Println(strings.Index(t, "brown"), strings.LastIndex(t, "o"), strings.Count(t, "o"))
	fmt.Println(strings.Replace(t, "o", "0", 1), strings.ReplaceAll(t, "o", "0"))
	fmt.Println(strings.Repeat("ab", 3), strings.Title("x"), strings.Join([]string{"a", "b"}, "-"))
	before, after, found := strings.Cut("key=value", "=")
	fmt.Println(before, after, found)
	var b strings.Builder
	for i := 0; i < 3; i++ {
		fmt.Fprintf(&b, "%d;", i)
	}
	fmt.Println(b.String(), b.Len())
	fmt.Println(strings.EqualFold("Go", "GO"), strings.TrimLeft("xxhi", "x"), strings.TrimSuffix("a.go", ".go"))
	r := strings.NewReplacer("<", "&lt;", ">", "&gt;")
	fmt.Println(r.Replace("<b>"))
	fmt.Println(strings.Map(func(r rune) rune { return r + 1 }, "abc"))
}
