package sdk

import (
	"database/sql/driver"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"time"
)

// PgxRows is what FromPgxRows reads: pgx's Rows (github.com/jackc/pgx/v5),
// the result of conn.Query or pool.Query. Its FieldDescriptions method is
// found by reflection, so the SDK needs no pgx import and a block that
// uses another pgx version still compiles.
type PgxRows interface {
	Next() bool
	Values() ([]any, error)
	Err() error
	Close()
}

// FromPgxRows reads every row of a pgx query into a Table, typed by each
// column's Postgres type (its OID and type modifier), not by the Go values
// pgx decodes: int2/int4/int8 are int64, float4/float8 float64,
// numeric(p,s) an exact decimal of that precision and scale (never a float;
// numeric without a precision is its text), boolean bool, date a date,
// timestamp a wall time, timestamptz an instant, json/jsonb their JSON
// text, uuid its canonical text, bytea \x and hex as Postgres prints it,
// anything else (text, varchar, arrays, intervals, enums) its text. NULLs
// stay nulls. It closes rows.
//
//	rows, err := conn.Query(ctx, "SELECT id, amount FROM orders WHERE id > $1", after)
//	if err != nil { return nil, err }
//	t, err := sdk.FromPgxRows(rows)
func FromPgxRows(rows PgxRows) (*Table, error) {
	defer rows.Close()
	descs, err := pgxFields(rows)
	if err != nil {
		return nil, err
	}
	fields := make([]Field, len(descs))
	for i, d := range descs {
		fields[i] = fieldOfPgType(d)
	}
	t := NewTable(fields...)
	if err := t.Err(); err != nil {
		return nil, err
	}
	cols := t.Columns()
	for n := 0; rows.Next(); n++ {
		vals, err := rows.Values()
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", n, err)
		}
		if len(vals) != len(cols) {
			return nil, fmt.Errorf("row %d: %d values for %d columns", n, len(vals), len(cols))
		}
		for i, v := range vals {
			if err := appendValue(cols[i], pgValue(descs[i].oid, v)); err != nil {
				return nil, fmt.Errorf("row %d: column %q (Postgres type oid %d): %w", n, cols[i].Name, descs[i].oid, err)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("rows: %w", err)
	}
	return t, nil
}

// pgField is what FromPgxRows needs of a pgconn.FieldDescription.
type pgField struct {
	name   string
	oid    uint32
	typmod int32
}

// pgxFields calls rows.FieldDescriptions() and reads the Name, DataTypeOID
// and TypeModifier of each.
func pgxFields(rows PgxRows) ([]pgField, error) {
	m := reflect.ValueOf(rows).MethodByName("FieldDescriptions")
	if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 || m.Type().Out(0).Kind() != reflect.Slice {
		return nil, fmt.Errorf("FromPgxRows: %T has no FieldDescriptions() method: pass the rows of a pgx v5 Query", rows)
	}
	list := m.Call(nil)[0]
	out := make([]pgField, list.Len())
	for i := range out {
		d := reflect.Indirect(list.Index(i))
		name, oid, mod := d.FieldByName("Name"), d.FieldByName("DataTypeOID"), d.FieldByName("TypeModifier")
		if d.Kind() != reflect.Struct || name.Kind() != reflect.String || !oid.CanUint() || !mod.CanInt() {
			return nil, fmt.Errorf("FromPgxRows: field description %d of %T lacks Name, DataTypeOID or TypeModifier", i, rows)
		}
		out[i] = pgField{name: name.String(), oid: uint32(oid.Uint()), typmod: int32(mod.Int())}
	}
	return out, nil
}

// Postgres type OIDs (pg_type.oid, fixed for built-in types).
const (
	pgBool        = 16
	pgBytea       = 17
	pgInt8        = 20
	pgInt2        = 21
	pgInt4        = 23
	pgOID         = 26
	pgJSON        = 114
	pgFloat4      = 700
	pgFloat8      = 701
	pgDate        = 1082
	pgTimestamp   = 1114
	pgTimestamptz = 1184
	pgNumeric     = 1700
	pgUUID        = 2950
	pgJSONB       = 3802
)

func fieldOfPgType(f pgField) Field {
	switch f.oid {
	case pgInt2, pgInt4, pgInt8, pgOID:
		return Int64(f.name)
	case pgFloat4, pgFloat8:
		return Float64(f.name)
	case pgBool:
		return Bool(f.name)
	case pgDate:
		return Date(f.name)
	case pgTimestamp:
		return Timestamp(f.name)
	case pgTimestamptz:
		return Time(f.name)
	case pgNumeric:
		// typmod is ((precision << 16) | scale) + 4; -1 when unconstrained.
		if f.typmod >= 4 {
			p, s := int((f.typmod-4)>>16)&0xffff, int(f.typmod-4)&0xffff
			if p >= 1 && p <= MaxDecimalPrecision && s <= p {
				return Decimal(f.name, p, s)
			}
		}
	}
	return String(f.name)
}

// pgValue turns what pgx decoded into what appendValue takes.
func pgValue(oid uint32, v any) any {
	if v == nil {
		return nil
	}
	switch oid {
	case pgJSON, pgJSONB:
		if b, err := json.Marshal(v); err == nil {
			return string(b)
		}
	case pgBytea:
		if b, ok := v.([]byte); ok {
			return `\x` + hex.EncodeToString(b)
		}
	case pgUUID:
		if u, ok := v.([16]byte); ok {
			return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
		}
	}
	switch x := v.(type) {
	case string, []byte, bool, int64, int32, int16, float64, float32, time.Time:
		return x
	case driver.Valuer: // pgtype.Numeric, Interval, Time, ...: their text
		if dv, err := x.Value(); err == nil && dv != nil {
			return dv
		}
	case []any: // arrays: their JSON text
		if b, err := json.Marshal(x); err == nil {
			return string(b)
		}
	}
	return v
}
