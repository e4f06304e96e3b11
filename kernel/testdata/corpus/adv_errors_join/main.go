package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

var ErrA = errors.New("A")
var ErrB = errors.New("B")

type NotFound struct{ Key string }

func (n NotFound) Error() string { return "not found: " + n.Key }

func main() {
	j := errors.Join(ErrA, nil, ErrB)
	fmt.Println(j)
	fmt.Println(errors.Is(j, ErrA), errors.Is(j, ErrB), errors.Is(j, io.EOF))
	fmt.Println(errors.Join(nil, nil) == nil)
	multi := fmt.Errorf("both: %w and %w", ErrA, NotFound{"k"})
	fmt.Println(multi, errors.Is(multi, ErrA))
	var nf NotFound
	fmt.Println(errors.As(multi, &nf), nf.Key)
	if u, ok := multi.(interface{ Unwrap() []error }); ok {
		fmt.Println(len(u.Unwrap()))
	}
	single := fmt.Errorf("ctx: %w", io.ErrUnexpectedEOF)
	fmt.Println(errors.Unwrap(single) == io.ErrUnexpectedEOF, errors.Unwrap(multi) == nil)
	_, err := os.Open("/definitely/not/here")
	var pe *fs.PathError
	fmt.Println(errors.Is(err, fs.ErrNotExist), errors.As(err, &pe), pe.Op)
	nested := fmt.Errorf("outer: %w", errors.Join(fmt.Errorf("mid: %w", ErrB)))
	fmt.Println(errors.Is(nested, ErrB))
	fmt.Printf("%v|%s|%q\n", ErrA, ErrB, ErrA)
}
