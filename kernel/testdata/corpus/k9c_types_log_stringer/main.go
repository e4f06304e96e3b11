package main

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"text/tabwriter"
)

type Point struct{ X, Y int }

func (p Point) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

type Code int

func (c Code) Error() string { return "code" }

func main() {
	log.SetFlags(0)
	log.SetOutput(os.Stdout)
	log.Println("a", Point{1, 1})
	log.Printf("b %v", Point{2, 2})
	l := log.New(os.Stdout, "", 0)
	l.Printf("c %v", Point{3, 3})
	l.Print(Point{4, 4})
	fmt.Fprintln(os.Stdout, "d", Point{5, 5})
	var sb strings.Builder
	fmt.Fprint(&sb, Point{6, 6})
	fmt.Println(sb.String(), fmt.Sprintln(Point{7, 7}))
	var bb bytes.Buffer
	fmt.Fprintf(&bb, "%s", Point{8, 8})
	fmt.Println(bb.String())
	var w io.Writer = os.Stdout
	fmt.Fprintln(w, Point{9, 9})
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 1, ' ', 0)
	fmt.Fprintf(tw, "%v\t%v\n", Point{10, 10}, Code(1))
	tw.Flush()
	fmt.Println(fmt.Errorf("e %w", Code(2)), Code(3))
	fmt.Printf("%v %s\n", Point{11, 11}, Code(4))
}
