package sdktest

import (
	"encoding/csv"
	"fmt"
	"io"
	"math/big"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// CSV builds a table from CSV text: a header row of column names, then one
// line per row; an empty cell is NULL. Columns named in fields take that
// field's type; the others are inferred from their values: int64 when
// every value is an integer, float64 when every value is a number, bool,
// a time (RFC 3339) or a date (YYYY-MM-DD), else string. A malformed cell
// fails t with its line and column.
func CSV(t testing.TB, text string, fields ...sdk.Field) *sdk.Table {
	t.Helper()
	tbl, err := ReadCSV(strings.NewReader(strings.TrimSpace(text)+"\n"), fields...)
	if err != nil {
		t.Fatalf("sdktest.CSV: %v", err)
	}
	return tbl
}

// CSVFile is CSV over a file (relative to the test's package folder).
func CSVFile(t testing.TB, path string, fields ...sdk.Field) *sdk.Table {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("sdktest.CSVFile: %v", err)
	}
	defer f.Close()
	tbl, err := ReadCSV(f, fields...)
	if err != nil {
		t.Fatalf("sdktest.CSVFile %s: %v", path, err)
	}
	return tbl
}

// ReadCSV is CSV for any reader, returning the error.
func ReadCSV(r io.Reader, fields ...sdk.Field) (*sdk.Table, error) {
	cr := csv.NewReader(r)
	cr.TrimLeadingSpace = true
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("no header row: want the column names on the first line")
	}
	header := recs[0]
	given := map[string]sdk.Field{}
	for _, f := range fields {
		given[f.Name] = f
	}
	for name := range given {
		found := false
		for _, h := range header {
			found = found || h == name
		}
		if !found {
			return nil, fmt.Errorf("field %q is not a column of the header (%s)", name, strings.Join(header, ", "))
		}
	}
	schema := make([]sdk.Field, len(header))
	for j, name := range header {
		if f, ok := given[name]; ok {
			schema[j] = f
			continue
		}
		schema[j] = sdk.Field{Name: name, Type: infer(recs[1:], j)}
	}
	out := sdk.NewTable(schema...)
	cols := out.Columns()
	for i, rec := range recs[1:] {
		for j, cell := range rec {
			if err := appendText(cols[j], cell); err != nil {
				return nil, fmt.Errorf("line %d, column %s: %w", i+2, header[j], err)
			}
		}
	}
	return out, out.Err()
}

// infer picks the narrowest type every non-empty cell of column j parses as.
func infer(rows [][]string, j int) sdk.Type {
	kinds := []sdk.Type{sdk.TypeInt64, sdk.TypeFloat64, sdk.TypeBool, sdk.TypeTime, sdk.TypeDate}
	ok := map[sdk.Type]bool{}
	for _, k := range kinds {
		ok[k] = true
	}
	seen := false
	for _, r := range rows {
		v := r[j]
		if v == "" {
			continue
		}
		seen = true
		for _, k := range kinds {
			if ok[k] && parseValue(k, v) == nil {
				ok[k] = false
			}
		}
	}
	if !seen {
		return sdk.TypeString
	}
	for _, k := range kinds {
		if ok[k] {
			return k
		}
	}
	return sdk.TypeString
}

// parseValue parses text as a value of type k; nil when it does not.
func parseValue(k sdk.Type, v string) any {
	switch k {
	case sdk.TypeInt64:
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return n
		}
	case sdk.TypeUint64:
		if n, err := strconv.ParseUint(v, 10, 64); err == nil {
			return n
		}
	case sdk.TypeFloat64:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f
		}
	case sdk.TypeBool:
		if b, err := strconv.ParseBool(v); err == nil {
			return b
		}
	case sdk.TypeTime:
		if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
			return t
		}
	case sdk.TypeTimestamp: // a wall time: with no zone, or read as its clock reading
		for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", time.RFC3339Nano} {
			if t, err := time.Parse(layout, v); err == nil {
				return t
			}
		}
	case sdk.TypeDate:
		if t, err := time.Parse(time.DateOnly, v); err == nil {
			return t
		}
	case sdk.TypeInt128:
		if b, ok := new(big.Int).SetString(v, 10); ok {
			return b
		}
	case sdk.TypeString:
		return v
	}
	return nil
}

// appendText appends one cell's text to c ("" is NULL, but for strings
// only when the cell is empty: a string column has no other way to say it).
func appendText(c *sdk.Column, v string) error {
	if v == "" {
		c.AppendNull()
		return nil
	}
	if c.Type == sdk.TypeDecimal {
		return c.AppendDecimal(v)
	}
	x := parseValue(c.Type, v)
	if x == nil {
		return fmt.Errorf("%q is not a %s", v, c.Type)
	}
	switch x := x.(type) {
	case int64:
		c.AppendInt64(x)
	case uint64:
		c.AppendUint64(x)
	case float64:
		c.AppendFloat64(x)
	case bool:
		c.AppendBool(x)
	case time.Time:
		c.AppendTime(x)
	case *big.Int:
		c.AppendBigInt(x)
	case string:
		c.AppendString(x)
	}
	return nil
}
