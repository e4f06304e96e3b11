package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

var ErrEmpty = errors.New("empty input")

func parse(s string) error {
	if s == "" {
		return fmt.Errorf("parse: %w", ErrEmpty)
	}
	return nil
}

func main() {
	err := parse("")
	fmt.Println(err, errors.Is(err, ErrEmpty), errors.Unwrap(err) == ErrEmpty)
	_, err = os.Open("/definitely/missing")
	fmt.Println(errors.Is(err, fs.ErrNotExist))
	var pe *fs.PathError
	if errors.As(err, &pe) {
		fmt.Println("op:", pe.Op)
	}
	j := errors.Join(io.EOF, ErrEmpty)
	fmt.Println(errors.Is(j, io.EOF), errors.Is(j, ErrEmpty))
	fmt.Println(j)
}
