package tableio

import (
	"math"
	"strconv"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// JSONColumn describes a column in JSON output.
type JSONColumn struct {
	Name string `json:"name"`
	Type string `json:"type"`
	// SQLType is the column's DuckDB type ("DECIMAL(38,10)", "DATE").
	SQLType string `json:"sql_type"`
}

// JSONTable is the JSON shape of a table or a preview of one: the schema,
// the first rows (as arrays in column order), and the full row count.
type JSONTable struct {
	Columns  []JSONColumn `json:"columns"`
	Rows     [][]any      `json:"rows"`
	RowCount int          `json:"row_count"`
}

// maxExactInt is the largest integer a float64 (a JavaScript number) holds exactly.
const maxExactInt = 1 << 53

// ToJSON returns up to limit rows (all when limit < 0). Instants (time
// columns) are RFC 3339 in loc, with the offset; dates ("2024-03-10") and
// wall times ("2024-03-10T02:30:00") are as stored, never shifted into a
// zone. NaN and infinities, which JSON cannot carry, become strings, and so
// do int64 values beyond ±2^53, which a JavaScript number would round, and
// every uint64, int128 and decimal value.
func ToJSON(t *sdk.Table, limit int, loc *time.Location) JSONTable {
	out := JSONTable{Columns: []JSONColumn{}, Rows: [][]any{}}
	if t == nil {
		return out
	}
	if loc == nil {
		loc = time.UTC
	}
	cols := t.Columns()
	for _, c := range cols {
		out.Columns = append(out.Columns, JSONColumn{c.Name, c.Type.String(), c.Field().SQLType()})
	}
	n := t.Len()
	out.RowCount = n
	if limit >= 0 && limit < n {
		n = limit
	}
	for i := 0; i < n; i++ {
		row := make([]any, len(cols))
		for j, c := range cols {
			if c.IsNull(i) {
				continue
			}
			switch c.Type {
			case sdk.TypeDate, sdk.TypeTimestamp, sdk.TypeUint64, sdk.TypeInt128, sdk.TypeDecimal:
				row[j] = FormatValue(c, i, loc)
				continue
			}
			switch v := c.Value(i).(type) {
			case time.Time:
				row[j] = v.In(loc).Format(time.RFC3339Nano)
			case int64:
				// JSON numbers are doubles in the browser: beyond 2^53 an
				// int64 would arrive rounded (…993 as …992), so it travels
				// as its exact decimal string.
				if v > maxExactInt || v < -maxExactInt {
					row[j] = strconv.FormatInt(v, 10)
				} else {
					row[j] = v
				}
			case float64:
				if math.IsNaN(v) || math.IsInf(v, 0) {
					row[j] = FormatValue(c, i, loc)
				} else {
					row[j] = v
				}
			default:
				row[j] = v
			}
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}
