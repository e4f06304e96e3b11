package tableio

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/stratahq/strata/blocks/sdk"
)

// WriteText prints an aligned table for a terminal: a header with types,
// numbers right-aligned, at most limit rows (all when limit < 0), and a
// footer with the row count.
func WriteText(w io.Writer, t *sdk.Table, limit int, loc *time.Location) error {
	return WriteTextOf(w, t, limit, int64(t.Len()), loc)
}

// WriteTextOf is WriteText for the first rows of a larger result: the
// footer counts total rows (the table holds the first of them).
func WriteTextOf(w io.Writer, t *sdk.Table, limit int, total int64, loc *time.Location) error {
	cols := t.Columns()
	shown := t.Len()
	if limit >= 0 && limit < shown {
		shown = limit
	}
	n := int(max(total, int64(t.Len())))
	cells := make([][]string, shown+1)
	cells[0] = make([]string, len(cols))
	widths := make([]int, len(cols))
	for j, c := range cols {
		cells[0][j] = c.Name + " (" + c.Type.String() + ")"
	}
	for i := 0; i < shown; i++ {
		cells[i+1] = make([]string, len(cols))
		for j, c := range cols {
			v := FormatValue(c, i, loc)
			if c.IsNull(i) {
				v = "NULL"
			}
			cells[i+1][j] = v
		}
	}
	for _, row := range cells {
		for j, v := range row {
			widths[j] = max(widths[j], utf8.RuneCountInString(v))
		}
	}
	var b strings.Builder
	for i, row := range cells {
		for j, v := range row {
			if j > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(v))
			numeric := cols[j].Type == sdk.TypeInt64 || cols[j].Type == sdk.TypeFloat64 || cols[j].Type == sdk.TypeUint64 || cols[j].Type == sdk.TypeInt128 || cols[j].Type == sdk.TypeDecimal
			if numeric && i > 0 {
				b.WriteString(pad + v)
			} else if j == len(row)-1 {
				b.WriteString(v)
			} else {
				b.WriteString(v + pad)
			}
		}
		b.WriteByte('\n')
		if i == 0 {
			for j := range row {
				if j > 0 {
					b.WriteString("  ")
				}
				b.WriteString(strings.Repeat("-", widths[j]))
			}
			b.WriteByte('\n')
		}
	}
	if shown < n {
		fmt.Fprintf(&b, "(%d rows, %d shown)\n", n, shown)
	} else {
		fmt.Fprintf(&b, "(%d rows)\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
