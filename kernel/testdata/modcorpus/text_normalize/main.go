package main

import (
	"fmt"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

func main() {
	s := "Crème brûlée à São Paulo"
	nfd := norm.NFD.String(s)
	fmt.Println(len(s), len(nfd), norm.NFC.String(nfd) == s)
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	plain, n, err := transform.String(t, s)
	fmt.Println(plain, n, err)
	fmt.Println(norm.NFKC.String("ﬁ ① ２"), norm.NFC.IsNormalString(s))
}
