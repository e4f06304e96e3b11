package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

type stack []float64

func (s *stack) push(v float64) { *s = append(*s, v) }
func (s *stack) pop() (float64, error) {
	if len(*s) == 0 {
		return 0, errors.New("stack underflow")
	}
	v := (*s)[len(*s)-1]
	*s = (*s)[:len(*s)-1]
	return v, nil
}

var binops = map[string]func(a, b float64) (float64, error){
	"+": func(a, b float64) (float64, error) { return a + b, nil },
	"-": func(a, b float64) (float64, error) { return a - b, nil },
	"*": func(a, b float64) (float64, error) { return a * b, nil },
	"/": func(a, b float64) (float64, error) {
		if b == 0 {
			return 0, errors.New("division by zero")
		}
		return a / b, nil
	},
	"^": func(a, b float64) (float64, error) { return math.Pow(a, b), nil },
}

func eval(expr string) (result float64, err error) {
	var st stack
	for i, tok := range strings.Fields(expr) {
		if op, ok := binops[tok]; ok {
			b, err := st.pop()
			if err != nil {
				return 0, fmt.Errorf("token %d %q: %w", i, tok, err)
			}
			a, err := st.pop()
			if err != nil {
				return 0, fmt.Errorf("token %d %q: %w", i, tok, err)
			}
			r, err := op(a, b)
			if err != nil {
				return 0, fmt.Errorf("token %d %q: %w", i, tok, err)
			}
			st.push(r)
			continue
		}
		switch tok {
		case "sqrt":
			v, err := st.pop()
			if err != nil {
				return 0, err
			}
			st.push(math.Sqrt(v))
		case "dup":
			v, err := st.pop()
			if err != nil {
				return 0, err
			}
			st.push(v)
			st.push(v)
		default:
			v, err := strconv.ParseFloat(tok, 64)
			if err != nil {
				return 0, fmt.Errorf("token %d: %w", i, err)
			}
			st.push(v)
		}
	}
	if len(st) != 1 {
		return 0, fmt.Errorf("bad expression: %d values left", len(st))
	}
	return st[0], nil
}

func main() {
	for _, e := range []string{
		"3 4 +",
		"5 1 2 + 4 * + 3 -",
		"2 10 ^ sqrt",
		"1 0 /",
		"1 +",
		"1 2",
		"3 dup * dup *",
		"2 x *",
		"-1.5e2 2 /",
	} {
		v, err := eval(e)
		if err != nil {
			fmt.Printf("%-20s error: %v\n", e, err)
			continue
		}
		fmt.Printf("%-20s = %g\n", e, v)
	}
}
