package main

import (
	"fmt"
	"strconv"
)

func main() {
	n, err := strconv.Atoi("123")
	fmt.Println(n+1, err)
	_, err = strconv.Atoi("12a")
	fmt.Println(err)
	f, _ := strconv.ParseFloat("3.25", 64)
	fmt.Println(f * 2)
	b, _ := strconv.ParseBool("true")
	fmt.Println(b)
	i, _ := strconv.ParseInt("-ff", 16, 64)
	fmt.Println(i)
	fmt.Println(strconv.Itoa(99), strconv.FormatInt(255, 2), strconv.Quote("hi\n"), strconv.FormatFloat(1.5, 'f', 3, 64))
	u, err := strconv.Unquote(`"a\tb"`)
	fmt.Printf("%q %v\n", u, err)
	fmt.Println(string(strconv.AppendInt([]byte("x="), 42, 10)))
}
