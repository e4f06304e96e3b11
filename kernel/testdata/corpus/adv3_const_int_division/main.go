// Untyped integer constants divide as integers whatever type the result
// takes: `var d float64 = 7 / 2` is 3. yaegi divided them in the result's
// type (3.5) before the kernel lowered each such division to its value;
// `var n int = 7.0 / 2 * 2` (7) gave 0.
package main

import (
	"fmt"
	"math"
	"time"
)

const half = 1 / 2
const seven = 7

type Ratio float64

type Money int64

const Dollar Money = 100

type Point struct{ X float64 }

func scale(f float64) float64 { return f }

func main() {
	var d float64 = 7 / 2
	fmt.Println(d)
	const c = 7 / 2 * 2.0
	fmt.Println(c)
	fmt.Println(7 / 2 * 2.0)
	x := 1.5 + 7/2
	fmt.Println(x)
	var f float64 = 1 / 3 * 3
	fmt.Println(f)
	g := 10.0
	g = g * (1 / 2)
	fmt.Println(g)
	fmt.Println(math.Sqrt(9 / 2))
	var f32 float32 = 5 / 2
	fmt.Println(f32)
	fmt.Println(scale(seven / 2))
	fmt.Println(half, float64(half))
	fmt.Println(time.Duration(3/2) * time.Second)
	h := 2.0
	h += 3 / 2
	fmt.Println(h)
	fmt.Println(g + 9/4)
	var arr = []float64{1 / 2, 3 / 2, 5.0 / 2}
	fmt.Println(arr)
	fmt.Println(float64(7 / 2))
	const k = 'a' / 2
	var fk float64 = k
	fmt.Println(fk)
	fmt.Println(7 % 4 * 1.5)

	var r Ratio = 3 / 2
	fmt.Println(r)
	fs := map[string]float64{"a": 1 / 2}
	fs["b"] = 3 / 2
	fmt.Println(fs)
	p := Point{X: 5 / 2}
	fmt.Println(p)
	ret := func() float64 { return 9 / 2 }
	fmt.Println(ret())
	var y float64 = -7 / 2
	fmt.Println(y, 7/2.0, 7.0/2)
	var ff float64 = math.MaxInt8 / 2
	fmt.Println(ff)
	var b float64 = (7 / 2) + 0.5
	fmt.Println(b, 2.0*(5/2))

	// A floating-point constant divided in an integer context.
	var n1 int = 7.0 / 2 * 2
	var n4 int = 10 / 4.0 * 2
	var n5 int = -7.0 / 2 * 2
	fmt.Println(n1, n4, n5)
	var m Money = 7 / 2 * Dollar
	fmt.Println(m, Dollar*3/2)
	var whole int = 1.0 / 3 * 3
	fmt.Println(whole, Dollar*(1.0/3*3))
	var third float64 = 1.0 / 3
	fmt.Println(third, float32(1.0/3))
}
