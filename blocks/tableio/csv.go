package tableio

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// ReadCSV reads a CSV file with a header row into a table. Column types are
// inferred from the values: int64, then float64, bool, time (RFC 3339,
// YYYY-MM-DD HH:MM:SS or YYYY-MM-DD), else string; an empty cell is a null.
func ReadCSV(r io.Reader) (*sdk.Table, error) {
	cr := csv.NewReader(r)
	records, err := cr.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(records) == 0 {
		return nil, fmt.Errorf("empty CSV: want a header row")
	}
	header := records[0]
	rows := records[1:]
	t := sdk.NewTable()
	for j, name := range header {
		name = strings.TrimSpace(name)
		typ := inferType(rows, j)
		c := sdk.NewColumn(name, typ)
		c.Reserve(len(rows))
		for i, row := range rows {
			cell := ""
			if j < len(row) {
				cell = strings.TrimSpace(row[j])
			}
			if cell == "" {
				c.AppendNull()
				continue
			}
			if err := appendCell(c, cell); err != nil {
				return nil, fmt.Errorf("row %d, column %q: %w", i+2, name, err)
			}
		}
		t.AddColumn(c)
	}
	return t, t.Validate()
}

func inferType(rows [][]string, j int) sdk.Type {
	candidates := []sdk.Type{sdk.TypeInt64, sdk.TypeFloat64, sdk.TypeBool, sdk.TypeTime}
	for _, typ := range candidates {
		ok, seen := true, false
		for _, row := range rows {
			if j >= len(row) || strings.TrimSpace(row[j]) == "" {
				continue
			}
			seen = true
			if appendCell(sdk.NewColumn("", typ), strings.TrimSpace(row[j])) != nil {
				ok = false
				break
			}
		}
		if ok && seen {
			return typ
		}
	}
	return sdk.TypeString
}

func appendCell(c *sdk.Column, cell string) error {
	switch c.Type {
	case sdk.TypeInt64:
		v, err := strconv.ParseInt(cell, 10, 64)
		if err != nil {
			return err
		}
		c.AppendInt64(v)
	case sdk.TypeFloat64:
		v, err := strconv.ParseFloat(cell, 64)
		if err != nil {
			return err
		}
		c.AppendFloat64(v)
	case sdk.TypeBool:
		v, err := strconv.ParseBool(cell)
		if err != nil {
			return err
		}
		c.AppendBool(v)
	case sdk.TypeTime:
		v, err := parseTime(cell)
		if err != nil {
			return err
		}
		c.AppendTime(v)
	default:
		c.AppendString(cell)
	}
	return nil
}

func parseTime(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time (want RFC 3339, YYYY-MM-DD HH:MM:SS or YYYY-MM-DD)", s)
}

// WriteCSV writes the table with a header row; nulls are empty cells and
// times are RFC 3339 in loc.
func WriteCSV(w io.Writer, t *sdk.Table, loc *time.Location) error {
	cw := csv.NewWriter(w)
	cols := t.Columns()
	rec := make([]string, len(cols))
	for j, c := range cols {
		rec[j] = c.Name
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	for i := 0; i < t.Len(); i++ {
		for j, c := range cols {
			rec[j] = FormatValue(c, i, loc)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// FormatValue renders one cell as text ("" for null).
func FormatValue(c *sdk.Column, i int, loc *time.Location) string {
	if c.IsNull(i) {
		return ""
	}
	switch c.Type {
	case sdk.TypeInt64:
		return strconv.FormatInt(c.Int64s()[i], 10)
	case sdk.TypeFloat64:
		return strconv.FormatFloat(c.Float64s()[i], 'g', -1, 64)
	case sdk.TypeBool:
		return strconv.FormatBool(c.Bools()[i])
	case sdk.TypeTime:
		if loc == nil {
			loc = time.UTC
		}
		return c.Times()[i].In(loc).Format(time.RFC3339Nano)
	default:
		return c.Strings()[i]
	}
}
