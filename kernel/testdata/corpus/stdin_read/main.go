package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

func main() {
	var name string
	n, err := fmt.Scanln(&name)
	fmt.Println(n, err)
	sc := bufio.NewScanner(os.Stdin)
	lines := 0
	for sc.Scan() {
		lines++
	}
	fmt.Println("lines:", lines)
	b, err := io.ReadAll(os.Stdin)
	fmt.Println(len(b), err)
}
