package main

import (
	"fmt"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

func main() {
	fmt.Println(cases.Title(language.English).String("the quick brown fox"))
	fmt.Println(cases.Title(language.Dutch).String("ijsselmeer ijzer"))
	fmt.Println(cases.Upper(language.Turkish).String("istanbul"))
	fmt.Println(cases.Upper(language.English).String("istanbul"))
	fmt.Println(cases.Lower(language.Greek).String("ΟΔΟΣ"))
	fmt.Println(cases.Fold().String("Straße MASSE"))
}
