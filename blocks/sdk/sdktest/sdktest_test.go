package sdktest

import (
	"bytes"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

func TestCSVInfersTypes(t *testing.T) {
	tbl := CSV(t, `id,amount,ok,at,day,name,note
1,12.5,true,2024-03-10T10:00:00Z,2024-03-10,ann,
2,3,false,2024-03-10T11:30:00+01:00,2024-03-11,bob,x`)
	want := []sdk.Field{sdk.Int64("id"), sdk.Float64("amount"), sdk.Bool("ok"), sdk.Time("at"), sdk.Date("day"), sdk.String("name"), sdk.String("note")}
	got := tbl.Schema()
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("column %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if tbl.Len() != 2 || !tbl.Column("note").IsNull(0) || tbl.Column("amount").Float64s()[1] != 3 {
		t.Fatalf("rows %v %v", tbl.Row(0), tbl.Row(1))
	}
	if at := tbl.Column("at").Times()[1]; !at.Equal(time.Date(2024, 3, 10, 10, 30, 0, 0, time.UTC)) {
		t.Errorf("at %v", at)
	}
}

func TestCSVGivenFieldsAndErrors(t *testing.T) {
	tbl, err := ReadCSV(strings.NewReader("id,price\n7,1.50\n"), sdk.String("id"), sdk.Decimal("price", 10, 2))
	if err != nil {
		t.Fatal(err)
	}
	if tbl.Column("id").Type != sdk.TypeString || tbl.Column("price").Decimals()[0] != "1.50" {
		t.Fatalf("%+v %v", tbl.Schema(), tbl.Row(0))
	}
	if _, err := ReadCSV(strings.NewReader("id\nx\n"), sdk.Int64("id")); err == nil || !strings.Contains(err.Error(), `line 2, column id: "x" is not a int64`) {
		t.Errorf("err = %v", err)
	}
	if _, err := ReadCSV(strings.NewReader("id\n1\n"), sdk.Int64("nope")); err == nil || !strings.Contains(err.Error(), `field "nope" is not a column`) {
		t.Errorf("err = %v", err)
	}
}

func TestDiff(t *testing.T) {
	want := CSV(t, "id,name,total\n1,ann,10\n2,bob,20\n3,cy,30")
	if d := Diff(CSV(t, "id,name,total\n3,cy,30\n1,ann,10\n2,bob,20"), want, "id"); d != "" {
		t.Errorf("same rows in another order: %s", d)
	}
	got := CSV(t, "id,name,total\n1,ann,10\n2,bob,25\n4,dee,40")
	d := Diff(got, want, "id")
	for _, line := range []string{
		"3 rows wanted, 3 got, by key (id): 1 changed, 1 missing, 1 unexpected",
		"~ id=2: total: 20 → 25",
		`- id=3 name="cy" total=30`,
		`+ id=4 name="dee" total=40`,
	} {
		if !strings.Contains(d, line) {
			t.Errorf("keyed diff lacks %q:\n%s", line, d)
		}
	}
	if d := Diff(got, want); !strings.Contains(d, "2 missing, 2 unexpected (rows compared whole)") {
		t.Errorf("whole rows:\n%s", d)
	}
	if d := Diff(CSV(t, "id,total\n1,1.5"), CSV(t, "id,total\n1,2")); !strings.Contains(d, "~ column total: want int64, got float64") {
		t.Errorf("schema:\n%s", d)
	}
	if d := Diff(got, want, "name2"); !strings.Contains(d, `key column "name2" is not a column`) {
		t.Errorf("bad key:\n%s", d)
	}
}

func TestWireRoundTrip(t *testing.T) {
	in := sdk.NewTable(sdk.Int64("i"), sdk.Float64("f"), sdk.String("s"), sdk.Bool("b"), sdk.Time("t"), sdk.Decimal("d", 18, 3), sdk.Int128("h"))
	big1, _ := new(big.Int).SetString("170141183460469231731687303715884105727", 10)
	in.Append(int64(9007199254740993), 0.1, "a \"quoted\", comma", true, time.Date(2024, 3, 10, 1, 2, 3, 4000, time.UTC), "12.345", big1)
	in.Append(nil, nil, "", nil, nil, nil, nil)
	var b bytes.Buffer
	if err := WriteJSON(&b, in); err != nil {
		t.Fatal(err)
	}
	out, err := ReadJSON(&b)
	if err != nil {
		t.Fatal(err)
	}
	if d := Diff(out, in); d != "" {
		t.Fatalf("round trip:\n%s", d)
	}
	if out.Column("s").IsNull(1) {
		t.Error("an empty string came back NULL")
	}
}

func TestNewContext(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	ctx := NewContext(t, "2024-03-10", InZone(ny), Vars(map[string]string{"margin": "0.3"}))
	if p := ctx.Partition; p.Interval != "day" || p.Duration() != 23*time.Hour || ctx.Var("margin", "") != "0.3" {
		t.Fatalf("%+v %v", p, p.Duration())
	}
	ctx.Log.Info("logged", "n", 1)
}
