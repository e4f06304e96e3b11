package main

import (
	"fmt"
	"os"
)

func main() {
	os.Setenv("CORPUS_COLOR", "blue")
	fmt.Println(os.Getenv("CORPUS_COLOR"))
	v, ok := os.LookupEnv("CORPUS_MISSING")
	fmt.Printf("%q %v\n", v, ok)
	os.Unsetenv("CORPUS_COLOR")
	fmt.Printf("%q\n", os.Getenv("CORPUS_COLOR"))
	fmt.Println(os.ExpandEnv("x=${CORPUS_MISSING}!"))
}
