package main

import (
	"fmt"
	"strings"
)

func main() {
	b := &strings.Builder{}
	w := b.WriteString
	w("a")
	w("b")
	fmt.Println(b.String(), b.Len())
}
