package main

import (
	"errors"
	"fmt"
	"math"
)

type ErrNegativeSqrt float64

func (e ErrNegativeSqrt) Error() string {
	return fmt.Sprintf("cannot Sqrt negative number: %v", float64(e))
}

func Sqrt(x float64) (float64, error) {
	if x < 0 {
		return 0, ErrNegativeSqrt(x)
	}
	z := 1.0
	for i := 0; i < 20; i++ {
		prev := z
		z -= (z*z - x) / (2 * z)
		if math.Abs(z-prev) < 1e-12 {
			break
		}
	}
	return z, nil
}

type MyError struct {
	When string
	What string
}

func (e *MyError) Error() string {
	return fmt.Sprintf("at %v, %s", e.When, e.What)
}

func run() error {
	return &MyError{"2009-11-10 23:00", "it didn't work"}
}

func main() {
	fmt.Println(Sqrt(2))
	fmt.Println(Sqrt(-2))
	v, err := Sqrt(16)
	fmt.Printf("%.3f %v\n", v, err)
	_, err = Sqrt(-9)
	if err != nil {
		fmt.Println("error:", err)
	}
	if err := run(); err != nil {
		fmt.Println(err)
	}
	wrapped := fmt.Errorf("calc: %w", err)
	fmt.Println(wrapped)
	var neg ErrNegativeSqrt
	fmt.Println(errors.As(wrapped, &neg), float64(neg))
	for _, x := range []float64{1, 3, 10, -1} {
		r, err := Sqrt(x)
		if err != nil {
			fmt.Println(x, "->", err)
			continue
		}
		fmt.Printf("%v -> %.6f (math %.6f)\n", x, r, math.Sqrt(x))
	}
}
