// Error wrapping with %w chains over standard errors only: errors.Is and
// errors.As walk them, fmt prints the whole chain, Unwrap peels one.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
)

var ErrSkip = errors.New("skip row")

func load(name string) error {
	_, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("load %s: %w", name, err)
	}
	return nil
}

func parse(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("parse %q: %w (also %w)", s, err, ErrSkip)
	}
	return n, nil
}

func main() {
	err := load("/definitely/missing/file.csv")
	fmt.Println(err)
	fmt.Println(errors.Is(err, fs.ErrNotExist), errors.Is(err, os.ErrNotExist), errors.Is(err, io.EOF))
	var pe *fs.PathError
	if errors.As(err, &pe) {
		fmt.Println(pe.Op, pe.Path, pe.Err)
	}
	wrapped := fmt.Errorf("stage 2: %w", err)
	fmt.Println(errors.Unwrap(wrapped) == err, errors.Unwrap(errors.Unwrap(wrapped)) == pe)

	_, err = parse("x1")
	fmt.Println(err)
	fmt.Println(errors.Is(err, ErrSkip), errors.Is(err, strconv.ErrSyntax), errors.Unwrap(err) == nil)
	var ne *strconv.NumError
	fmt.Println(errors.As(err, &ne), ne.Num)

	joined := errors.Join(ErrSkip, nil, io.ErrUnexpectedEOF)
	fmt.Printf("%q %v %v\n", joined.Error(), errors.Is(joined, io.ErrUnexpectedEOF), errors.Join(nil, nil) == nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cerr := fmt.Errorf("query: %w", ctx.Err())
	fmt.Println(cerr, errors.Is(cerr, context.Canceled), errors.Is(cerr, context.DeadlineExceeded))
	fmt.Println(fmt.Errorf("no wrap: %v", ErrSkip), errors.Is(fmt.Errorf("no wrap: %v", ErrSkip), ErrSkip))
	e1 := errors.New("same")
	e2 := errors.New("same")
	fmt.Println(e1 == e2, errors.Is(e1, e2), e1.Error() == e2.Error())
	var target error = ErrSkip
	fmt.Println(errors.Is(fmt.Errorf("%w", fmt.Errorf("%w", target)), ErrSkip))
}
