package main

import (
	"fmt"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

func main() {
	for _, tag := range []language.Tag{language.English, language.German, language.French, language.Hindi} {
		p := message.NewPrinter(tag)
		p.Printf("%v: %d orders, %.2f EUR, %v%%\n", tag, 1234567, 9876543.21, 12.5)
	}
	fmt.Println(message.NewPrinter(language.Make("de-CH")).Sprintf("%d", 1000000))
}
