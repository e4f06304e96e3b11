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
	ErrEmpty    = errors.New("empty value")
	ErrRange    = errors.New("out of range")
	ErrNotFound = errors.New("not found")
)

func validate(field, v string) error {
	if v == "" {
		return fmt.Errorf("%s: %w", field, ErrEmpty)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return fmt.Errorf("%s: %w", field, err)
	}
	if n < 0 || n > 100 {
		return fmt.Errorf("%s=%d: %w", field, n, ErrRange)
	}
	return nil
}

func validateAll(rec map[string]string, order []string) error {
	var errs []error
	for _, f := range order {
		if err := validate(f, rec[f]); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func lookup(key string) error {
	base := fmt.Errorf("key %q: %w", key, ErrNotFound)
	return fmt.Errorf("lookup failed: %w; also: %w", base, io.ErrUnexpectedEOF)
}

func main() {
	order := []string{"age", "score", "level"}
	err := validateAll(map[string]string{"age": "200", "score": "x1", "level": ""}, order)
	fmt.Println(err)
	fmt.Println("---")
	fmt.Println(errors.Is(err, ErrRange), errors.Is(err, ErrEmpty), errors.Is(err, ErrNotFound))
	var numErr *strconv.NumError
	if errors.As(err, &numErr) {
		fmt.Println("num error:", numErr.Func, numErr.Num, numErr.Err)
	}
	fmt.Println(validateAll(map[string]string{"age": "5", "score": "50", "level": "1"}, order) == nil)

	e := lookup("user:7")
	fmt.Println(e)
	fmt.Println(errors.Is(e, ErrNotFound), errors.Is(e, io.ErrUnexpectedEOF), errors.Is(e, io.EOF))
	fmt.Println(errors.Unwrap(e) == nil)

	_, err = os.Open("/definitely/not/here.txt")
	var pe *fs.PathError
	fmt.Println(errors.As(err, &pe), pe.Op, errors.Is(err, fs.ErrNotExist), errors.Is(err, os.ErrNotExist))
	wrapped := fmt.Errorf("config: %w", errors.Join(err, ErrEmpty))
	fmt.Printf("%v\n%q\n", wrapped, errors.Join(nil, nil) == nil)
}
