package main

import (
	"fmt"
	"strings"
)

type Color struct{ R, G, B uint8 }

func (c Color) String() string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

func (c Color) GoString() string { return fmt.Sprintf("Color{%d,%d,%d}", c.R, c.G, c.B) }

type Money int64

func (m Money) Format(f fmt.State, verb rune) {
	switch verb {
	case 'v', 's':
		sign := ""
		if m < 0 {
			sign = "-"
			m = -m
		}
		s := fmt.Sprintf("%s$%d.%02d", sign, int64(m)/100, int64(m)%100)
		if w, ok := f.Width(); ok && len(s) < w {
			if f.Flag('-') {
				s += strings.Repeat(" ", w-len(s))
			} else {
				s = strings.Repeat(" ", w-len(s)) + s
			}
		}
		fmt.Fprint(f, s)
	case 'd':
		fmt.Fprintf(f, "%d", int64(m))
	default:
		fmt.Fprintf(f, "%%!%c(Money)", verb)
	}
}

type ParseErr struct {
	Line int
	Msg  string
}

func (e *ParseErr) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

func main() {
	red := Color{255, 0, 16}
	fmt.Println(red)
	fmt.Printf("%v|%s|%q|%x|%#v|%+v\n", red, red, red, red, red, red)
	fmt.Printf("%10s|%-10s|\n", red, red)

	price := Money(123456)
	debt := Money(-505)
	fmt.Println(price, debt)
	fmt.Printf("[%v] [%12v] [%-12v] [%d] [%x]\n", price, price, debt, price, price)
	fmt.Println(fmt.Sprint(price) == "$1234.56")

	var err error = &ParseErr{3, "unexpected }"}
	fmt.Println(err)
	fmt.Printf("%v|%s|%q\n", err, err, err)
	wrapped := fmt.Errorf("load config: %w", err)
	fmt.Println(wrapped)

	s := fmt.Sprintf("%v and %v", red, price)
	fmt.Println(strings.ToUpper(s), len(s))
}
