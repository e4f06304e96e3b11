package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
)

var (
	ErrNotFound   = errors.New("not found")
	ErrPermission = errors.New("permission denied")
)

func lookup(key string) (string, error) {
	switch key {
	case "a":
		return "alpha", nil
	case "secret":
		return "", fmt.Errorf("lookup %q: %w", key, ErrPermission)
	}
	return "", fmt.Errorf("lookup %q: %w", key, ErrNotFound)
}

func load(keys ...string) error {
	var errs []error
	for _, k := range keys {
		if _, err := lookup(k); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func main() {
	_, err := lookup("b")
	fmt.Println(err, errors.Is(err, ErrNotFound), errors.Is(err, ErrPermission))
	wrapped := fmt.Errorf("handler: %w", err)
	fmt.Println(wrapped, errors.Unwrap(wrapped) == err, errors.Unwrap(errors.Unwrap(wrapped)) == ErrNotFound)

	err = load("a", "b", "secret")
	fmt.Println(err)
	fmt.Println(errors.Is(err, ErrNotFound), errors.Is(err, ErrPermission), errors.Is(err, io.EOF))
	fmt.Println(load("a") == nil, load() == nil)

	two := fmt.Errorf("both: %w and %w", ErrNotFound, io.ErrUnexpectedEOF)
	fmt.Println(two, errors.Is(two, io.ErrUnexpectedEOF), errors.Unwrap(two) == nil)

	_, err = os.Open("/definitely/not/here.txt")
	var pe *fs.PathError
	if errors.As(err, &pe) {
		fmt.Println("path error:", pe.Op, pe.Path, pe.Err)
	}
	fmt.Println(errors.Is(err, fs.ErrNotExist), os.IsNotExist(err))

	_, err = strconv.ParseInt("99999999999999999999", 10, 64)
	var ne *strconv.NumError
	fmt.Println(errors.As(err, &ne), ne.Func, errors.Is(err, strconv.ErrRange))
	_, err = strconv.ParseFloat("abc", 64)
	fmt.Println(err, errors.Is(err, strconv.ErrSyntax))

	chain := io.EOF
	for i := 0; i < 3; i++ {
		chain = fmt.Errorf("level %d: %w", i, chain)
	}
	fmt.Println(chain)
	depth := 0
	for e := chain; e != nil; e = errors.Unwrap(e) {
		depth++
	}
	fmt.Println("depth", depth, errors.Is(chain, io.EOF))
	fmt.Printf("%v | %s | %q\n", ErrNotFound, ErrNotFound, ErrNotFound)
	noWrap := fmt.Errorf("plain %v", ErrNotFound)
	fmt.Println(errors.Is(noWrap, ErrNotFound))
	var nilErr error
	fmt.Println(nilErr == nil, fmt.Sprint(nilErr), errors.Join(nil, nil) == nil)
}
