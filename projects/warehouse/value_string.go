package warehouse

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// stringForm renders a value of a type without an sdk counterpart close to
// DuckDB's own CAST(... AS VARCHAR): lists as [a, b], structs as {'k': v}
// (fields sorted by name: the driver hands structs over as maps), maps as
// {k=v}, UUIDs in 8-4-4-4-12 form, blobs with \xNN escapes, JSON as text.
func stringForm(v any, dbType string) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return x
	case []byte:
		if dbType == "UUID" && len(x) == 16 {
			var u duckdb.UUID
			copy(u[:], x)
			return u.String()
		}
		return blobString(x)
	case time.Time:
		switch dbType {
		case "TIME":
			return x.Format("15:04:05.999999")
		case "TIMETZ", "TIME WITH TIME ZONE":
			return x.Format("15:04:05.999999-07:00")
		}
		return x.UTC().Format("2006-01-02 15:04:05.999999Z07:00")
	case duckdb.Interval:
		return intervalString(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = stringForm(e, "")
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		if strings.HasPrefix(dbType, "JSON") {
			b, err := json.Marshal(x)
			if err == nil {
				return string(b)
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = "'" + k + "': " + stringForm(x[k], "")
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case duckdb.OrderedMap:
		parts := make([]string, 0, x.Len())
		keys, values := x.Keys(), x.Values()
		for i := range keys {
			parts = append(parts, stringForm(keys[i], "")+"="+stringForm(values[i], ""))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case fmt.Stringer:
		return x.String()
	}
	if dbType == "JSON" {
		if b, err := json.Marshal(v); err == nil {
			return string(b)
		}
	}
	return fmt.Sprint(v)
}

func blobString(b []byte) string {
	if utf8.Valid(b) {
		printable := true
		for _, c := range b {
			if c < 0x20 || c >= 0x7f {
				printable = false
				break
			}
		}
		if printable {
			return string(b)
		}
	}
	var sb strings.Builder
	for _, c := range b {
		if c >= 0x20 && c < 0x7f && c != '\\' {
			sb.WriteByte(c)
		} else {
			fmt.Fprintf(&sb, `\x%02X`, c)
		}
	}
	return sb.String()
}

func intervalString(iv duckdb.Interval) string {
	var parts []string
	plural := func(n int64, unit string) string {
		if n == 1 || n == -1 {
			return fmt.Sprintf("%d %s", n, unit)
		}
		return fmt.Sprintf("%d %ss", n, unit)
	}
	if y, m := iv.Months/12, iv.Months%12; y != 0 || m != 0 {
		if y != 0 {
			parts = append(parts, plural(int64(y), "year"))
		}
		if m != 0 {
			parts = append(parts, plural(int64(m), "month"))
		}
	}
	if iv.Days != 0 {
		parts = append(parts, plural(int64(iv.Days), "day"))
	}
	if iv.Micros != 0 || len(parts) == 0 {
		d := time.Duration(iv.Micros) * time.Microsecond
		sign := ""
		if d < 0 {
			sign, d = "-", -d
		}
		h, m, s := int64(d/time.Hour), int64(d/time.Minute)%60, int64(d/time.Second)%60
		frac := int64(d%time.Second) / 1000
		str := fmt.Sprintf("%s%02d:%02d:%02d", sign, h, m, s)
		if frac != 0 {
			str += strings.TrimRight(fmt.Sprintf(".%06d", frac), "0")
		}
		parts = append(parts, str)
	}
	return strings.Join(parts, " ")
}
