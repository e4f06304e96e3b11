package main

import (
	"fmt"

	"golang.org/x/text/width"
)

func main() {
	for _, s := range []string{"ＡＢＣ１２３", "abc123", "ｶﾀｶﾅ"} {
		fmt.Println(width.Narrow.String(s), width.Widen.String(s), width.Fold.String(s))
	}
	p := width.LookupRune('Ａ')
	fmt.Println(p.Kind(), string(p.Narrow()), width.LookupRune('a').Kind())
}
