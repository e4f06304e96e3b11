package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

type Shape interface{ Area() float64 }

type Sq struct{ S float64 }

func (s Sq) Area() float64 { return s.S * s.S }

func find(ok bool) (Shape, error) {
	if !ok {
		return nil, errors.New("missing")
	}
	return Sq{2}, nil
}

func main() {
	var s Shape
	fmt.Println(s == nil)
	s, err := find(true)
	fmt.Println(s.Area(), err == nil)
	_, err = find(false)
	fmt.Println(err)
	var a, b any = 1, 1
	fmt.Println(a == b, a != any(2), any("x") == any("x"))
	var r io.Reader = strings.NewReader("abc")
	data, _ := io.ReadAll(r)
	fmt.Println(string(data))
	var e1 error = io.EOF
	fmt.Println(e1 == io.EOF, errors.Is(fmt.Errorf("x: %w", io.EOF), io.EOF))
	shapes := []Shape{Sq{1}, Sq{3}}
	total := 0.0
	for _, sh := range shapes {
		total += sh.Area()
	}
	fmt.Println(total)
	fmt.Println(Sq{1} == Sq{1}, shapes[0] == Sq{1})
	var x any = 5
	fmt.Println(x == 5, x != 5, 5 == x, x == "5", error(nil) == nil)
}
