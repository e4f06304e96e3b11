package main

import (
	"fmt"
	"os"
	"strings"
)

// What runs interpreted: values with methods handed straight to fmt.
type Celsius float64

func (c Celsius) String() string { return fmt.Sprintf("%.1f°C", float64(c)) }

type Point struct{ X, Y int }

func (p Point) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

type PP struct{ X int }

func (p *PP) String() string { return "pp" }

func main() {
	c := Celsius(21.5)
	fmt.Println(c)
	fmt.Println(fmt.Sprint(c), fmt.Sprintf("%v|%s", c, c))
	fmt.Println(&PP{1}, &Point{7, 7})
	var st fmt.Stringer = Point{3, 3}
	fmt.Println(st, st.String())
	fmt.Println([]fmt.Stringer{st})
	e := fmt.Errorf("at %v", Point{6, 6})
	fmt.Println(e)
	var sb strings.Builder
	fmt.Fprint(&sb, Point{6, 6})
	fmt.Fprintln(os.Stdout, sb.String(), fmt.Sprintln(Point{7, 7}))
	pts := []Point{{1, 1}, {2, 2}}
	for _, p := range pts {
		fmt.Print(p, " ")
	}
	fmt.Println()
}
