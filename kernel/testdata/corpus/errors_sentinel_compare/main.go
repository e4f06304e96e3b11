package main

import (
	"fmt"
	"io"
)

type codeErr struct{ code int }

func (e *codeErr) Error() string { return fmt.Sprint("code ", e.code) }

var errTeapot = &codeErr{418}

func do(n int) error {
	switch n {
	case 0:
		return nil
	case 1:
		return io.EOF
	}
	return errTeapot
}

func main() {
	for i := 0; i < 3; i++ {
		err := do(i)
		fmt.Println(i, err == nil, err == io.EOF, err == error(errTeapot), err)
	}
}
