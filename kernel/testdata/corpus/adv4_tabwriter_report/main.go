// text/tabwriter: aligned columns with right alignment, debug bars and
// padding characters, as a CLI report prints them.
package main

import (
	"fmt"
	"os"
	"text/tabwriter"
)

type line struct {
	name  string
	rows  int
	bytes float64
}

func main() {
	data := []line{{"orders", 120000, 5.25}, {"customers", 42, 0.01}, {"x", 7, 123.456}}
	w := tabwriter.NewWriter(os.Stdout, 0, 8, 2, ' ', 0)
	fmt.Fprintln(w, "TABLE\tROWS\tMB\t")
	for _, d := range data {
		fmt.Fprintf(w, "%s\t%d\t%.2f\t\n", d.name, d.rows, d.bytes)
	}
	w.Flush()

	w = tabwriter.NewWriter(os.Stdout, 5, 0, 1, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintln(w, "a\tbbb\tc\t")
	fmt.Fprintln(w, "aaaa\tb\tcccccc\t")
	fmt.Fprintln(w, "\t\t\t")
	w.Flush()

	w = tabwriter.NewWriter(os.Stdout, 0, 4, 1, '.', tabwriter.TabIndent)
	fmt.Fprintln(w, "k\tvalue")
	fmt.Fprintln(w, "longer key\tv2")
	fmt.Fprintln(w, "")
	fmt.Fprintln(w, "after blank\tv3")
	w.Flush()

	w = tabwriter.NewWriter(os.Stdout, 0, 8, 1, '\t', tabwriter.DiscardEmptyColumns)
	fmt.Fprintln(w, "x\t\ty")
	fmt.Fprintln(w, "xx\t\tyy")
	w.Flush()
}
