package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

var (
	dateRe  = regexp.MustCompile(`(\d{4})-(\d{2})-(\d{2})`)
	wordRe  = regexp.MustCompile(`\b\w+\b`)
	priceRe = regexp.MustCompile(`\$(\d+(?:\.\d+)?)`)
	kvRe    = regexp.MustCompile(`(?P<key>\w+)=(?P<val>"[^"]*"|\S+)`)
)

func main() {
	text := "Invoice 2024-03-15: pen $1.50, pad $3, due 2024-04-01."
	fmt.Println(dateRe.ReplaceAllString(text, "$3/$2/$1"))
	total := 0.0
	doubled := priceRe.ReplaceAllStringFunc(text, func(m string) string {
		v, _ := strconv.ParseFloat(m[1:], 64)
		total += v
		return fmt.Sprintf("$%.2f", v*2)
	})
	fmt.Println(doubled, total)
	caps := wordRe.ReplaceAllStringFunc("go is fun", strings.ToUpper)
	fmt.Println(caps)
	for _, m := range dateRe.FindAllStringSubmatch(text, -1) {
		fmt.Println(m[0], m[1:])
	}
	fmt.Println(dateRe.FindAllStringIndex(text, -1), dateRe.MatchString("no date"))
	line := `name="Ada L" age=36 city=London`
	for _, m := range kvRe.FindAllStringSubmatch(line, -1) {
		fmt.Printf("%s => %s\n", m[kvRe.SubexpIndex("key")], strings.Trim(m[kvRe.SubexpIndex("val")], `"`))
	}
	fmt.Println(kvRe.SubexpNames(), kvRe.NumSubexp())
	re := regexp.MustCompile(`a+b*`)
	fmt.Println(re.FindAllString("aaabbb ab a b aab", -1), re.FindStringIndex("xxaab"), re.String())
	fmt.Println(regexp.QuoteMeta("1+1=2?"), re.Split("xaabyabz", -1))
	_, err := regexp.Compile(`(unclosed`)
	fmt.Println(err)
	b := regexp.MustCompile(`(?i)hello`).ReplaceAll([]byte("Hello HELLO hi"), []byte("bye"))
	fmt.Println(string(b))
	lit := regexp.MustCompile(`\d`).ReplaceAllLiteralString("a1b2", "$1")
	fmt.Println(lit)
}
