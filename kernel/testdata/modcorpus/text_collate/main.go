package main

import (
	"fmt"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

func main() {
	words := []string{"zebra", "Äpfel", "apple", "Zürich", "öl", "Ostern"}
	for _, tag := range []language.Tag{language.German, language.Swedish} {
		w := append([]string(nil), words...)
		collate.New(tag).SortStrings(w)
		fmt.Println(tag, w)
	}
	c := collate.New(language.English, collate.IgnoreCase)
	fmt.Println(c.CompareString("Hello", "hello"), c.CompareString("a", "b"))
}
