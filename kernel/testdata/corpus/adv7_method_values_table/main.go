package main

import (
	"fmt"
	"sort"
	"strings"
)

type Calculator struct {
	acc  float64
	tape []string
}

func (c *Calculator) Add(x float64) { c.acc += x; c.log("+", x) }
func (c *Calculator) Sub(x float64) { c.acc -= x; c.log("-", x) }
func (c *Calculator) Mul(x float64) { c.acc *= x; c.log("*", x) }
func (c *Calculator) log(op string, x float64) {
	c.tape = append(c.tape, fmt.Sprintf("%s%g=%g", op, x, c.acc))
}
func (c Calculator) Result() float64 { return c.acc }

type Temp struct{ deg float64 }

func (t Temp) Fahrenheit() float64 { return t.deg*9/5 + 32 }

func main() {
	calc := &Calculator{}
	ops := map[string]func(float64){
		"add": calc.Add,
		"sub": calc.Sub,
		"mul": calc.Mul,
	}
	script := "add 5; mul 3; sub 2.5; add 0.5"
	for _, stmt := range strings.Split(script, ";") {
		var name string
		var arg float64
		fmt.Sscanf(strings.TrimSpace(stmt), "%s %g", &name, &arg)
		ops[name](arg)
	}
	fmt.Println(calc.Result(), calc.tape)
	names := make([]string, 0, len(ops))
	for k := range ops {
		names = append(names, k)
	}
	sort.Strings(names)
	fmt.Println(names)

	t := Temp{100}
	f := t.Fahrenheit
	t.deg = 0
	fmt.Println(f(), t.Fahrenheit())

	temps := []Temp{{0}, {37}, {-40}}
	var convs []func() float64
	for _, tt := range temps {
		convs = append(convs, tt.Fahrenheit)
	}
	temps[0].deg = 1000
	for _, c := range convs {
		fmt.Print(c(), " ")
	}
	fmt.Println()

	result := calc.Result
	calc.Add(100)
	fmt.Println(result())

	var sb strings.Builder
	write := func(s string) { sb.WriteString(s) }
	for _, w := range []string{"a", "b", "c"} {
		write(w)
	}
	fmt.Println(sb.String())
	up := strings.ToUpper
	trim := strings.TrimSpace
	pipeline := []func(string) string{trim, up}
	s := "  mixed Case  "
	for _, p := range pipeline {
		s = p(s)
	}
	fmt.Printf("%q\n", s)
}
