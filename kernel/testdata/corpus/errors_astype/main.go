package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

func main() {
	_, err := os.Open("/nope")
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		fmt.Println("path:", pe.Path)
	}
}
