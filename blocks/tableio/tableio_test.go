package tableio

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

func TestReadCSVInfersTypes(t *testing.T) {
	t.Parallel()
	in := "id,amount,ok,at,name,day,wall,big,huge\n1,2.5,true,2024-03-10T05:00:00-05:00,alice,2024-03-10,2024-03-10 02:30:00,18446744073709551615,-170141183460469231731687303715884105728\n" +
		"2,,false,2024-03-11T05:00:00Z,,2024-03-11,2024-03-11T02:30,1,1\n"
	tb, err := ReadCSV(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []sdk.Type{sdk.TypeInt64, sdk.TypeFloat64, sdk.TypeBool, sdk.TypeTime, sdk.TypeString, sdk.TypeDate, sdk.TypeTimestamp, sdk.TypeUint64, sdk.TypeInt128}
	for i, f := range tb.Schema() {
		if f.Type != want[i] {
			t.Errorf("column %s: %s, want %s", f.Name, f.Type, want[i])
		}
	}
	if !tb.Column("amount").IsNull(1) || !tb.Column("name").IsNull(1) {
		t.Fatal("empty cells should be nulls")
	}
	// Written back, every value is the text it was read from (instants in UTC).
	var out bytes.Buffer
	if err := WriteCSV(&out, tb, time.UTC); err != nil {
		t.Fatal(err)
	}
	want2 := "id,amount,ok,at,name,day,wall,big,huge\n1,2.5,true,2024-03-10T10:00:00Z,alice,2024-03-10,2024-03-10T02:30:00,18446744073709551615,-170141183460469231731687303715884105728\n" +
		"2,,false,2024-03-11T05:00:00Z,,2024-03-11,2024-03-11T02:30:00,1,1\n"
	if out.String() != want2 {
		t.Fatalf("csv:\n%s\nwant\n%s", out.String(), want2)
	}
}

// Dates and wall times reach JSON as they are stored, whatever the zone;
// only instants are shown in it, with their offset. uint64, int128 and
// decimals are exact strings.
func TestToJSONExactTypes(t *testing.T) {
	t.Parallel()
	ny, _ := time.LoadLocation("America/New_York")
	huge, _ := new(big.Int).SetString("170141183460469231731687303715884105727", 10)
	tb := sdk.NewTable(sdk.Date("d"), sdk.Timestamp("ts"), sdk.Time("at"), sdk.Uint64("u"), sdk.Int128("h"), sdk.Decimal("x", 38, 10))
	tb.Append(time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC), time.Date(2024, 3, 10, 2, 30, 0, 0, time.UTC), time.Date(2024, 3, 10, 7, 30, 0, 0, time.UTC),
		uint64(18446744073709551615), huge, "1234567890123456789012345678.0123456789")
	tb.Append(nil, nil, nil, nil, nil, nil)
	b, err := json.Marshal(ToJSON(tb, -1, ny))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"columns":[{"name":"d","type":"date","sql_type":"DATE"},{"name":"ts","type":"timestamp","sql_type":"TIMESTAMP"},` +
		`{"name":"at","type":"time","sql_type":"TIMESTAMPTZ"},{"name":"u","type":"uint64","sql_type":"UBIGINT"},{"name":"h","type":"int128","sql_type":"HUGEINT"},` +
		`{"name":"x","type":"decimal","sql_type":"DECIMAL(38,10)"}],"rows":[["2024-03-10","2024-03-10T02:30:00","2024-03-10T03:30:00-04:00",` +
		`"18446744073709551615","170141183460469231731687303715884105727","1234567890123456789012345678.0123456789"],[null,null,null,null,null,null]],"row_count":2}`
	if got := string(b); got != want {
		t.Fatalf("json:\n got %s\nwant %s", got, want)
	}
}

func TestJSONAndTextOutput(t *testing.T) {
	t.Parallel()
	tb := sdk.NewTable(sdk.Int64("n"), sdk.Time("at"))
	tb.Append(42, time.Date(2024, 3, 10, 5, 0, 0, 0, time.UTC))
	tb.Append(nil, nil)
	ny, _ := time.LoadLocation("America/New_York")
	b, err := json.Marshal(ToJSON(tb, 1, ny))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); got != `{"columns":[{"name":"n","type":"int64","sql_type":"BIGINT"},{"name":"at","type":"time","sql_type":"TIMESTAMPTZ"}],"rows":[[42,"2024-03-10T00:00:00-05:00"]],"row_count":2}` {
		t.Fatalf("json: %s", got)
	}
	var out bytes.Buffer
	if err := WriteText(&out, tb, -1, time.UTC); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "NULL") || !strings.Contains(out.String(), "(2 rows)") {
		t.Fatalf("text:\n%s", out.String())
	}
}

// An int64 beyond 2^53 reaches the browser exact: as its decimal string.
func TestToJSONLargeIntsExact(t *testing.T) {
	tb := sdk.NewTable(sdk.Int64("id"))
	tb.Append(int64(9007199254740993))
	tb.Append(int64(-9007199254740993))
	tb.Append(int64(42))
	j := ToJSON(tb, -1, nil)
	b, err := json.Marshal(j.Rows)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); got != `[["9007199254740993"],["-9007199254740993"],[42]]` {
		t.Fatalf("rows %s", got)
	}
}
