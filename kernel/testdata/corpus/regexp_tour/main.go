package main

import (
	"fmt"
	"regexp"
)

func main() {
	re := regexp.MustCompile(`(\w+)@(\w+)\.com`)
	s := "ann@x.com, bob@y.com"
	fmt.Println(re.MatchString(s))
	fmt.Println(re.FindAllString(s, -1))
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		fmt.Println(m[1], m[2])
	}
	fmt.Println(re.ReplaceAllString(s, "$1 at $2"))
	_, err := regexp.Compile(`(`)
	fmt.Println(err != nil)
}
