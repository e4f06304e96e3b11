package tableio

import (
	"encoding/csv"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// ReadCSV reads a CSV file with a header row into a table. Column types are
// inferred from the values: int64, uint64, int128 (integers too large for
// int64 are never read as floats), float64, bool, date (YYYY-MM-DD),
// timestamp (a wall time without offset, YYYY-MM-DD HH:MM:SS or with a T),
// time (RFC 3339 with an offset: an instant), else string; an empty cell is
// a null.
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
	candidates := []sdk.Type{sdk.TypeInt64, sdk.TypeUint64, sdk.TypeInt128, sdk.TypeFloat64, sdk.TypeBool, sdk.TypeDate, sdk.TypeTimestamp, sdk.TypeTime}
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
	case sdk.TypeUint64:
		v, err := strconv.ParseUint(cell, 10, 64)
		if err != nil {
			return err
		}
		c.AppendUint64(v)
	case sdk.TypeInt128:
		v, ok := new(big.Int).SetString(cell, 10)
		if !ok || !sdk.FitsInt128(v) {
			return fmt.Errorf("%q is not a 128-bit integer", cell)
		}
		c.AppendBigInt(v)
	case sdk.TypeDate:
		v, err := time.Parse("2006-01-02", cell)
		if err != nil {
			return err
		}
		c.AppendTime(v)
	case sdk.TypeTimestamp:
		v, err := parseWall(cell)
		if err != nil {
			return err
		}
		c.AppendTime(v)
	case sdk.TypeTime:
		v, err := time.Parse(time.RFC3339Nano, cell)
		if err != nil {
			return fmt.Errorf("%q is not an instant (want RFC 3339 with an offset)", cell)
		}
		c.AppendTime(v)
	default:
		c.AppendString(cell)
	}
	return nil
}

func parseWall(s string) (time.Time, error) {
	for _, layout := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04", "2006-01-02T15:04"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a wall time (want YYYY-MM-DD HH:MM:SS)", s)
}

// WriteCSV writes the table with a header row; nulls are empty cells,
// instants are RFC 3339 in loc with their offset, dates and wall times are
// as stored, and every number is its exact text.
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
	case sdk.TypeDate:
		return c.Times()[i].Format(DateLayout)
	case sdk.TypeTimestamp:
		return c.Times()[i].Format(WallLayout)
	case sdk.TypeUint64:
		return strconv.FormatUint(c.Uint64s()[i], 10)
	case sdk.TypeInt128:
		return c.BigInts()[i].String()
	default:
		return c.Strings()[i]
	}
}

// The text of dates and wall times: ISO 8601 without an offset, since
// neither is an instant.
const (
	DateLayout = "2006-01-02"
	WallLayout = "2006-01-02T15:04:05.999999"
)
