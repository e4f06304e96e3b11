package main

import (
	"fmt"
	"os"
)

func main() {
	defer fmt.Println("deferred: not printed")
	fmt.Println("about to exit")
	os.Exit(3)
}
