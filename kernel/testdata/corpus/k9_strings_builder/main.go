package main

import (
	"fmt"
	"strings"
	"unicode"
)

type row struct {
	name  string
	count int
	share float64
}

func table(rows []row) string {
	var b strings.Builder
	b.Grow(256)
	width := len("name")
	for _, r := range rows {
		width = max(width, len(r.name))
	}
	fmt.Fprintf(&b, "%-*s | %5s | %6s\n", width, "name", "count", "share")
	b.WriteString(strings.Repeat("-", width) + "-+-------+-------\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%-*s | %5d | %5.1f%%\n", width, r.name, r.count, r.share*100)
	}
	return b.String()
}

func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

func main() {
	fmt.Print(table([]row{{"apples", 12, 0.4}, {"kiwi", 3, 0.1}, {"blueberries", 15, 0.5}}))
	fmt.Println(slug("  Hello, World! Go 1.26 — rocks  "))
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	fmt.Println(r.Replace("a < b && c > d"))
	rot := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' {
			return 'a' + (r-'a'+13)%26
		}
		if r == ' ' {
			return -1
		}
		return r
	}, "hello world!")
	fmt.Println(rot)
	var sb strings.Builder
	for i := 3; i > 0; i-- {
		fmt.Fprintf(&sb, "%d...", i)
	}
	sb.WriteString("liftoff")
	fmt.Println(sb.String(), sb.Len())
	fields := strings.FieldsFunc("a1b22c333", unicode.IsDigit)
	fmt.Printf("%q\n", fields)
	before, after, found := strings.Cut("key=value=x", "=")
	fmt.Println(before, after, found)
	fmt.Println(strings.EqualFold("Straße", "STRASSE"), strings.EqualFold("Go", "GO"))
	fmt.Printf("%q\n", strings.SplitN("a,b,c,d", ",", 2))
	fmt.Println(strings.Title("not used"), strings.ToTitle("ǆ"), strings.Count("cheese", "e"), strings.LastIndex("go gopher", "go"))
}
