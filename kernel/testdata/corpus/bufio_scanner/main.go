package main

import (
	"bufio"
	"fmt"
	"strings"
)

func main() {
	input := "first line\nsecond line\n\nfourth"
	sc := bufio.NewScanner(strings.NewReader(input))
	n := 0
	for sc.Scan() {
		n++
		fmt.Printf("%d: %q\n", n, sc.Text())
	}
	ws := bufio.NewScanner(strings.NewReader("count these  words please"))
	ws.Split(bufio.ScanWords)
	words := 0
	for ws.Scan() {
		words++
	}
	fmt.Println("words:", words)
	r := bufio.NewReader(strings.NewReader("a,b,c"))
	tok, err := r.ReadString(',')
	fmt.Printf("%q %v\n", tok, err)
}
