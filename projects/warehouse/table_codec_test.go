package warehouse

import (
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
		sdk.Int64("a"), sdk.Int64("b"), sdk.Int64("c"), sdk.Int64("d"), sdk.Float64("e"), sdk.Float64("f"),
		sdk.Time("g"), sdk.Time("h"), sdk.Time("i"), sdk.Bool("j"),
		sdk.String("k"), sdk.String("l"), sdk.String("m"), sdk.String("n"), sdk.String("o"), sdk.Int64("p"), sdk.Int64("q"),
	}
	for i, f := range want {
		if g := got.Schema()[i]; g != f {
			t.Fatalf("column %d: got %v, want %v", i, g, f)
		}
	}
	d := day("2024-03-10")
	assertRows(t, got, row(int64(1), int64(2), int64(3), int64(4), 1.5, 3.25,
		d, d.Add(time.Hour+2*time.Minute+3*time.Second), d.Add(time.Hour+2*time.Minute+3*time.Second), true,
		"[1, 2]", "{'x': 1, 'y': z}", "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "1 day", "01:02:03", nil, int64(5)))
}

func TestQueryRenamesDuplicateColumns(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	assertNames(t, query(t, wh, `SELECT 1 AS a, 2 AS a, 3 AS A`), "a", "a_1", "A_2")
}

func TestQueryHugeintOverflowIsAnError(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	_, err := wh.Query(t.Context(), `SELECT 170141183460469231731687303715884105727::HUGEINT AS big`)
	assertErrContains(t, err, `column "big" (HUGEINT): value 170141183460469231731687303715884105727 does not fit in int64`)
}
