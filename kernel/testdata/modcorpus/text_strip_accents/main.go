package main

import (
	"fmt"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

func main() {
	strip := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	for _, s := range []string{"Crème Brûlée", "São Paulo", "Ærøskøbing", "naïve café", "Ｆｕｌｌｗｉｄｔｈ"} {
		out, n, err := transform.String(strip, s)
		fmt.Printf("%q -> %q (%d bytes read, err %v)\n", s, out, n, err)
	}
	upper := runes.Map(unicode.ToUpper)
	out, _, _ := transform.String(upper, "déjà vu")
	fmt.Println(out, norm.NFKC.String("Ｆｕｌｌ ①"))
}
