package main

import (
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
)

type line struct {
	sku   string
	desc  string
	qty   int
	cents int64
}

func money(c int64) string {
	sign := ""
	if c < 0 {
		sign = "-"
		c = -c
	}
	return fmt.Sprintf("%s$%d.%02d", sign, c/100, c%100)
}

func main() {
	lines := []line{
		{"A-100", "Widget", 3, 499},
		{"B-20", "Gadget, large", 1, 12999},
		{"C-3", "Refund", 1, -1500},
		{"D-4444", "Thingamajig", 12, 75},
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 8, 2, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintln(w, "SKU\tDescription\tQty\tTotal\t")
	var total int64
	for _, l := range lines {
		t := int64(l.qty) * l.cents
		total += t
		fmt.Fprintf(w, "%s\t%s\t%d\t%s\t\n", l.sku, l.desc, l.qty, money(t))
	}
	fmt.Fprintf(w, "\t\t\t%s\t\n", money(total))
	w.Flush()

	var sb strings.Builder
	tw := tabwriter.NewWriter(&sb, 4, 0, 1, '.', 0)
	fmt.Fprintln(tw, "a\tbb\tccc")
	fmt.Fprintln(tw, "dddd\te\tf")
	tw.Flush()
	fmt.Print(sb.String())
	fmt.Println(sb.Len())

	var b strings.Builder
	b.Grow(64)
	for i := 0; i < 5; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d^2=%d", i, i*i)
	}
	b.WriteByte('.')
	b.WriteRune('✓')
	fmt.Println(b.String(), b.Len())
}
