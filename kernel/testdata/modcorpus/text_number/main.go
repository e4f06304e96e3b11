package main

import (
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

func main() {
	for _, tag := range []language.Tag{language.English, language.German, language.French, language.Hindi} {
		p := message.NewPrinter(tag)
		p.Printf("%-3v %d | %.2f | %v\n", tag, 1234567, 9876.543, number.Percent(0.256))
	}
	message.NewPrinter(language.English).Println(number.Decimal(1234.5, number.MaxFractionDigits(0)))
}
