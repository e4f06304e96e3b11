package warehouse

import (
	"fmt"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

func TestTypesRoundTripWithNulls(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	ny, _ := time.LoadLocation("America/New_York")
	ts := time.Date(2024, 3, 10, 1, 30, 0, 123456000, ny) // microseconds survive
	in := table(t, cols(sdk.Int64("i"), sdk.Float64("f"), sdk.String("s"), sdk.Bool("b"), sdk.Time("t")),
		row(int64(-9007199254740993), 1.25, "héllo", true, ts),
		row(nil, nil, nil, nil, nil),
		row(0, -0.5, "", false, time.Unix(0, 0)),
		// Longer than DuckDB keeps inline in a string value.
		row(1, 2.0, "a string longer than twelve bytes, ünïcode", true, time.Unix(1, 0)),
	)
	publish(t, wh, "types", "2024-03-10", in)
	got := read(t, wh, "types", Selection{})
	assertNames(t, got, "_partition", "i", "f", "s", "b", "t")
	for i, f := range in.Schema() {
		if g := got.Schema()[i+1]; g != f {
			t.Fatalf("column %d: got %v, want %v", i, g, f)
		}
	}
	assertRows(t, got,
		row("2024-03-10", int64(-9007199254740993), 1.25, "héllo", true, ts.UTC()),
		row("2024-03-10", nil, nil, nil, nil, nil),
		row("2024-03-10", int64(0), -0.5, "", false, time.Unix(0, 0).UTC()),
		row("2024-03-10", int64(1), 2.0, "a string longer than twelve bytes, ünïcode", true, time.Unix(1, 0).UTC()),
	)
	if loc := got.Column("t").Times()[0].Location(); loc != time.UTC {
		t.Fatalf("time comes back in %v, want UTC", loc)
	}
	// The DuckDB types are the documented ones.
	assertRows(t, query(t, wh, `SELECT column_name, data_type FROM information_schema.columns
		WHERE table_name = 'types' ORDER BY ordinal_position`),
		row("_partition", "VARCHAR"), row("i", "BIGINT"), row("f", "DOUBLE"), row("s", "VARCHAR"),
		row("b", "BOOLEAN"), row("t", "TIMESTAMP WITH TIME ZONE"))
}

func TestQueryMapsDuckDBTypes(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	got := query(t, wh, `SELECT 1::TINYINT a, 2::INTEGER b, 3::HUGEINT c, 4::UBIGINT d, 1.5::FLOAT e, 3.25::DECIMAL(10,2) f,
		DATE '2024-03-10' g, TIMESTAMP '2024-03-10 01:02:03' h, TIMESTAMPTZ '2024-03-10 01:02:03+00' i, true j,
		[1, 2] k, {'x': 1, 'y': 'z'} l, '6ba7b810-9dad-11d1-80b4-00c04fd430c8'::UUID m, INTERVAL 1 DAY n,
		TIME '01:02:03' o, NULL::INTEGER p, sum(5) q`)
	want := []sdk.Field{
		sdk.Int64("a"), sdk.Int64("b"), sdk.Int64("c"), sdk.Uint64("d"), sdk.Float64("e"), sdk.Decimal("f", 10, 2),
		sdk.Date("g"), sdk.Timestamp("h"), sdk.Time("i"), sdk.Bool("j"),
		sdk.String("k"), sdk.String("l"), sdk.String("m"), sdk.String("n"), sdk.String("o"), sdk.Int64("p"), sdk.Int64("q"),
	}
	for i, f := range want {
		if g := got.Schema()[i]; g != f {
			t.Fatalf("column %d: got %v, want %v", i, g, f)
		}
	}
	d := day("2024-03-10")
	assertRows(t, got, row(int64(1), int64(2), int64(3), uint64(4), 1.5, "3.25",
		d, d.Add(time.Hour+2*time.Minute+3*time.Second), d.Add(time.Hour+2*time.Minute+3*time.Second), true,
		"[1, 2]", "{'x': 1, 'y': z}", "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "1 day", "01:02:03", nil, int64(5)))
}

func TestQueryRenamesDuplicateColumns(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	assertNames(t, query(t, wh, `SELECT 1 AS a, 2 AS a, 3 AS A`), "a", "a_1", "A_2")
}

// Values beyond int64 and float64 arrive exactly, and survive a publish and
// a read back with their DuckDB types. It failed before: HUGEINT beyond
// int64 was refused, UBIGINT beyond 2^63 refused, DECIMAL(38,10) rounded
// through a float, DATE and TIMESTAMP turned into instants.
func TestExactValuesRoundTrip(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	got, err := wh.Query(t.Context(), `SELECT 170141183460469231731687303715884105727::HUGEINT AS big,
		(-170141183460469231731687303715884105727::HUGEINT - 1) AS low, 18446744073709551615::UBIGINT AS u,
		1234567890123456789012345678.0123456789::DECIMAL(38,10) AS d, -0.0000000001::DECIMAL(38,10) AS tiny,
		9007199254740993::BIGINT AS i, DATE '2024-03-10' AS day, TIMESTAMP '2024-03-10 02:30:00.123456' AS wall,
		TIMESTAMPTZ '2024-03-10 07:30:00+00' AS at, 2::HUGEINT AS small_huge, NULL::DECIMAL(38,10) AS nd`)
	if err != nil {
		t.Fatal(err)
	}
	wantSchema := []sdk.Field{sdk.Int128("big"), sdk.Int128("low"), sdk.Uint64("u"), sdk.Decimal("d", 38, 10), sdk.Decimal("tiny", 38, 10),
		sdk.Int64("i"), sdk.Date("day"), sdk.Timestamp("wall"), sdk.Time("at"), sdk.Int64("small_huge"), sdk.Decimal("nd", 38, 10)}
	wantText := "[170141183460469231731687303715884105727 -170141183460469231731687303715884105728 18446744073709551615 " +
		"1234567890123456789012345678.0123456789 -0.0000000001 9007199254740993 2024-03-10 2024-03-10T02:30:00.123456 2024-03-10T07:30:00Z 2 <nil>]"
	check := func(what string, tb *sdk.Table, skip int) {
		t.Helper()
		for i, f := range wantSchema {
			if g := tb.Schema()[i+skip]; g != f {
				t.Fatalf("%s column %d: got %+v, want %+v", what, i, g, f)
			}
		}
		var vals []string
		for _, c := range tb.Columns()[skip:] {
			switch v := c.Value(0).(type) {
			case time.Time:
				switch c.Type {
				case sdk.TypeDate:
					vals = append(vals, v.Format("2006-01-02"))
				case sdk.TypeTimestamp:
					vals = append(vals, v.Format("2006-01-02T15:04:05.999999"))
				default:
					vals = append(vals, v.Format(time.RFC3339Nano))
				}
			default:
				vals = append(vals, fmt.Sprint(v))
			}
		}
		if g := fmt.Sprint(vals); g != wantText {
			t.Fatalf("%s values:\n got %s\nwant %s", what, g, wantText)
		}
	}
	check("query", got, 0)
	publish(t, wh, "exact", "2024-03-10", got)
	back := read(t, wh, "exact", Selection{})
	check("published and read back", back, 1)
	assertRows(t, query(t, wh, `SELECT data_type FROM information_schema.columns WHERE table_name = 'exact' ORDER BY ordinal_position`),
		row("VARCHAR"), row("HUGEINT"), row("HUGEINT"), row("UBIGINT"), row("DECIMAL(38,10)"), row("DECIMAL(38,10)"), row("BIGINT"),
		row("DATE"), row("TIMESTAMP"), row("TIMESTAMP WITH TIME ZONE"), row("BIGINT"), row("DECIMAL(38,10)"))
}
