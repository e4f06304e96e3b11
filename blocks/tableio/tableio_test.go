package tableio

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

func TestReadCSVInfersTypes(t *testing.T) {
	t.Parallel()
	in := "id,amount,ok,at,name\n1,2.5,true,2024-03-10,alice\n2,,false,2024-03-11T05:00:00Z,\n"
	tb, err := ReadCSV(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []sdk.Type{sdk.TypeInt64, sdk.TypeFloat64, sdk.TypeBool, sdk.TypeTime, sdk.TypeString}
	for i, f := range tb.Schema() {
		if f.Type != want[i] {
			t.Errorf("column %s: %s, want %s", f.Name, f.Type, want[i])
		}
	}
	if !tb.Column("amount").IsNull(1) || !tb.Column("name").IsNull(1) {
		t.Fatal("empty cells should be nulls")
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
	if got := string(b); got != `{"columns":[{"name":"n","type":"int64"},{"name":"at","type":"time"}],"rows":[[42,"2024-03-10T00:00:00-05:00"]],"row_count":2}` {
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
