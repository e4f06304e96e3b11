package main

import (
	"fmt"
	"io"
)

type myErr struct{}

func (*myErr) Error() string { return "my" }

type Shape interface{ Area() float64 }

type Rect struct{ W float64 }

func (r *Rect) Area() float64 { return 1 }

type plain struct{}

type W struct{}

func (*W) Write(p []byte) (int, error) { return len(p), nil }

func main() {
	var pe *myErr
	var x any = pe
	fmt.Println("a", x == nil)
	var r *Rect
	var s Shape = r
	fmt.Println("b", s == nil)
	var pl *plain
	var y any = pl
	fmt.Println("c", y == nil)
	var w *W
	var wr io.Writer = w
	fmt.Println("d", wr == nil)
	var st fmt.Stringer
	fmt.Println("e", st == nil)
}
