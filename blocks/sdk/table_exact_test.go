package sdk

import (
	"math/big"
	"strings"
	"testing"
	"time"
)

func TestDatesAndWallTimesKeepTheirReading(t *testing.T) {
	t.Parallel()
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip(err)
	}
	at := time.Date(2024, 3, 10, 23, 30, 0, 0, ny) // 2024-03-11 03:30 UTC
	tb := NewTable(Date("d"), Timestamp("ts"), Time("at"))
	tb.Append(at, at, at)
	if err := tb.Err(); err != nil {
		t.Fatal(err)
	}
	if got := tb.Column("d").Times()[0]; !got.Equal(time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("date = %v, want 2024-03-10 (the date in the value's own zone)", got)
	}
	if got := tb.Column("ts").Times()[0]; !got.Equal(time.Date(2024, 3, 10, 23, 30, 0, 0, time.UTC)) {
		t.Errorf("timestamp = %v, want wall time 2024-03-10 23:30", got)
	}
	if got := tb.Column("at").Times()[0]; !got.Equal(at) {
		t.Errorf("instant = %v, want %v", got, at)
	}
}

func TestExactNumbers(t *testing.T) {
	t.Parallel()
	huge, _ := new(big.Int).SetString("-170141183460469231731687303715884105728", 10)
	tb := NewTable(Uint64("u"), Int128("h"), Decimal("d", 38, 10))
	tb.Append(uint64(18446744073709551615), huge, "1234567890123456789012345678.0123456789")
	tb.Append(nil, "9007199254740993", "-0.5")
	tb.Append(7, 1, 3)
	if err := tb.Err(); err != nil {
		t.Fatal(err)
	}
	if got := tb.Column("u").Uint64s()[0]; got != 18446744073709551615 {
		t.Errorf("uint64 = %d", got)
	}
	if got := tb.Column("h").BigInts()[0].String(); got != huge.String() {
		t.Errorf("int128 = %s", got)
	}
	want := []string{"1234567890123456789012345678.0123456789", "-0.5000000000", "3.0000000000"}
	for i, w := range want {
		if got := tb.Column("d").Decimals()[i]; got != w {
			t.Errorf("decimal %d = %q, want %q", i, got, w)
		}
	}
	if !tb.Column("u").IsNull(1) {
		t.Error("null uint64 lost")
	}
	for _, bad := range []struct {
		v    any
		want string
	}{
		{"1.00000000001", "11 digits after the point"},
		{"123456789012345678901234567890", "30 digits before the point"},
		{"1e5", "not a decimal"},
	} {
		b := NewTable(Decimal("d", 38, 10))
		b.Append(bad.v)
		if b.Err() == nil || !strings.Contains(b.Err().Error(), bad.want) {
			t.Errorf("decimal %v: err %v, want %q", bad.v, b.Err(), bad.want)
		}
	}
	over := NewTable(Int128("h"))
	over.Append("170141183460469231731687303715884105728")
	if over.Err() == nil || !strings.Contains(over.Err().Error(), "out of range") {
		t.Errorf("int128 overflow: %v", over.Err())
	}
	if NewTable(Decimal("d", 40, 2)).Err() == nil {
		t.Error("DECIMAL(40,2) accepted")
	}
}

func TestDecimalUnscaledRoundTrip(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"0.00", "-0.05", "12.34", "-99999999999999999999999999999999999.99"} {
		u, err := DecimalUnscaled(s, 2)
		if err != nil {
			t.Fatal(err)
		}
		if got := DecimalFromUnscaled(u, 2); got != s {
			t.Errorf("%s -> %s -> %s", s, u, got)
		}
	}
	if got := DecimalFromUnscaled(big.NewInt(5), 0); got != "5" {
		t.Errorf("scale 0: %s", got)
	}
}
