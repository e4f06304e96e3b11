// Interface nil-ness: a nil pointer of a standard type in an interface is
// not nil; a nil interface is. Checked through a function that returns
// io.Reader and fmt.Stringer.
package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

func pick(kind string) io.Reader {
	switch kind {
	case "buf":
		var b *bytes.Buffer
		return b
	case "str":
		return strings.NewReader("x")
	}
	return nil
}

func describe(r io.Reader) string {
	if r == nil {
		return "nil interface"
	}
	switch v := r.(type) {
	case *bytes.Buffer:
		return fmt.Sprintf("*bytes.Buffer nil=%v", v == nil)
	case *strings.Reader:
		return fmt.Sprintf("*strings.Reader len=%d", v.Len())
	}
	return "other"
}

func main() {
	for _, k := range []string{"buf", "str", "none"} {
		r := pick(k)
		fmt.Println(k, r == nil, describe(r))
	}
	var s fmt.Stringer
	fmt.Println(s == nil)
	var sb *strings.Builder
	var w io.Writer = sb
	fmt.Println(w == nil, w != nil)
	var e error
	fmt.Println(e == nil, fmt.Sprint(e))
	var anyv any
	fmt.Println(anyv == nil)
	anyv = (*int)(nil)
	fmt.Println(anyv == nil, anyv)
	var ip *int
	anyv = ip
	_, isPtr := anyv.(*int)
	fmt.Println(isPtr)
	var m map[string]int
	anyv = m
	fmt.Println(anyv == nil, m == nil)
	var f func()
	anyv = f
	fmt.Println(anyv == nil, f == nil)
	xs := []any{nil, (*bytes.Buffer)(nil), 0, ""}
	for i, x := range xs {
		fmt.Println(i, x == nil, x)
	}
}
