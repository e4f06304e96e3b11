package sdktest

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/stratahq/strata/blocks/sdk"
)

// The wire FromVersion reads a stored version in: `strata test --read`
// writes it (WriteJSON), this package reads it (ReadJSON). Every value is
// its exact text (ints in decimal, floats in their shortest round-trip
// form, times in RFC 3339 with nanoseconds) or null, so nothing passes
// through a JSON number's float64.

type wireTable struct {
	Fields []wireField `json:"fields"`
	Rows   [][]*string `json:"rows"`
}

type wireField struct {
	Name      string `json:"name"`
	Type      string `json:"type"`
	Precision uint8  `json:"precision,omitempty"`
	Scale     uint8  `json:"scale,omitempty"`
}

// WriteJSON writes t in the wire FromVersion reads.
func WriteJSON(w io.Writer, t *sdk.Table) error {
	out := wireTable{Fields: []wireField{}, Rows: make([][]*string, t.Len())}
	for _, f := range t.Schema() {
		out.Fields = append(out.Fields, wireField{Name: f.Name, Type: f.Type.String(), Precision: f.Precision, Scale: f.Scale})
	}
	cols := t.Columns()
	for i := range out.Rows {
		row := make([]*string, len(cols))
		for j, c := range cols {
			if !c.IsNull(i) {
				s := valueText(c, i)
				if c.Type == sdk.TypeString {
					s = c.Strings()[i] // unquoted
				}
				row[j] = &s
			}
		}
		out.Rows[i] = row
	}
	return json.NewEncoder(w).Encode(out)
}

// ReadJSON reads a table WriteJSON wrote.
func ReadJSON(r io.Reader) (*sdk.Table, error) {
	var in wireTable
	if err := json.NewDecoder(r).Decode(&in); err != nil {
		return nil, fmt.Errorf("decode table: %w", err)
	}
	fields := make([]sdk.Field, len(in.Fields))
	for j, f := range in.Fields {
		typ, err := sdk.ParseType(f.Type)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", f.Name, err)
		}
		fields[j] = sdk.Field{Name: f.Name, Type: typ, Precision: f.Precision, Scale: f.Scale}
	}
	out := sdk.NewTable(fields...)
	cols := out.Columns()
	for i, row := range in.Rows {
		if len(row) != len(cols) {
			return nil, fmt.Errorf("row %d has %d values for %d columns", i, len(row), len(cols))
		}
		for j, v := range row {
			if v == nil {
				cols[j].AppendNull()
				continue
			}
			if cols[j].Type == sdk.TypeString {
				cols[j].AppendString(*v)
				continue
			}
			if err := appendText(cols[j], *v); err != nil {
				return nil, fmt.Errorf("row %d, column %s: %w", i, fields[j].Name, err)
			}
		}
	}
	return out, out.Err()
}
