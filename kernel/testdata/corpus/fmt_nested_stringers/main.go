package main

import (
	"errors"
	"fmt"
)

type Temp struct{ C float64 }

func (t Temp) String() string { return fmt.Sprintf("%.1fC", t.C) }

type PT struct{ C float64 }

func (t *PT) String() string { return "pt" }

type E struct{}

func (E) Error() string { return "E!" }

type Wrap struct{ T Temp }

type Level int

func (l Level) String() string { return [...]string{"lo", "hi"}[l] }

func main() {
	t := Temp{1}
	fmt.Println("1", []Temp{t})
	fmt.Println("2", [1]Temp{t})
	fmt.Println("3", map[string]Temp{"a": t})
	fmt.Println("4", Wrap{t})
	fmt.Println("5", []any{t})
	fmt.Println("6", []fmt.Stringer{t})
	fmt.Println("7", &Wrap{t})
	fmt.Println("8", []*PT{{1}})
	fmt.Println("9", []error{E{}})
	fmt.Println("10", fmt.Sprint([]Temp{t}), fmt.Sprintf("%v|%s", []Temp{t}, []Temp{t}))
	fmt.Println("11", []Level{0, 1}, map[Level]int{1: 2})
	fmt.Println("12", errors.New("x"), fmt.Errorf("w: %w", E{}))
	var s fmt.Stringer = t
	fmt.Println("13", s, []fmt.Stringer{s})
	fmt.Println("14", struct{ L Level }{1})
	var x any = t
	fmt.Println("15", x)
	fmt.Printf("16 %v %s\n", x, x)
	fmt.Println("17", struct{ A any }{t})
	fmt.Println("18", []any{1, "a", Wrap{}})
	fmt.Println("20", E{}, &E{}, fmt.Sprint(E{}), fmt.Sprintf("%v %s", E{}, E{}))
	var err error = E{}
	fmt.Println("21", err, fmt.Errorf("e: %v", err), fmt.Errorf("e: %w", err))
	fmt.Println("19", fmt.Errorf("w: %w", &E{}), fmt.Errorf("v: %v", E{}))
}
