package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
)

var (
	ErrNotFound = errors.New("not found")
	ErrDenied   = errors.New("denied")
)

func lookup(key string) error {
	switch key {
	case "":
		return fmt.Errorf("lookup: empty key: %w", ErrNotFound)
	case "root":
		return fmt.Errorf("lookup %q: %w", key, ErrDenied)
	}
	return nil
}

func load(keys ...string) error {
	var errs []error
	for _, k := range keys {
		if err := lookup(k); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func main() {
	err := load("a", "", "root")
	fmt.Println(err)
	fmt.Println(errors.Is(err, ErrNotFound), errors.Is(err, ErrDenied), errors.Is(err, fs.ErrExist))
	fmt.Println(load("a", "b") == nil)

	both := fmt.Errorf("sync failed: %w; then %w", ErrNotFound, ErrDenied)
	fmt.Println(both, errors.Is(both, ErrDenied), errors.Unwrap(both) == nil)

	wrapped := fmt.Errorf("layer2: %w", fmt.Errorf("layer1: %w", ErrDenied))
	fmt.Println(wrapped, errors.Unwrap(errors.Unwrap(wrapped)) == ErrDenied)

	_, err = os.Open("/definitely/not/here.txt")
	var pe *fs.PathError
	if errors.As(err, &pe) {
		fmt.Println("path error:", pe.Op, pe.Path, errors.Is(err, fs.ErrNotExist))
	}
	_, err = strconv.Atoi("12x")
	var ne *strconv.NumError
	fmt.Println(errors.As(err, &ne), ne.Func, ne.Num, errors.Is(err, strconv.ErrSyntax))
	_, err = strconv.ParseInt("99999999999999999999", 10, 64)
	fmt.Println(err, errors.Is(err, strconv.ErrRange))

	wrappedPath := fmt.Errorf("config: %w", &fs.PathError{Op: "read", Path: "app.yaml", Err: fs.ErrPermission})
	fmt.Println(wrappedPath, errors.Is(wrappedPath, fs.ErrPermission), errors.Is(wrappedPath, os.ErrPermission))
	joined := errors.Join(nil, nil)
	fmt.Println(joined == nil)
}
