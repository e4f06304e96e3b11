package sdk

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// ParseDecimal returns the text of s as a DECIMAL(precision, scale) value:
// exactly scale digits after the point, no leading zeros, no "-0". A value
// with more fraction digits than scale, or more integer digits than
// precision-scale, is refused rather than rounded.
func ParseDecimal(s string, precision, scale uint8) (string, error) {
	if err := validDecimal(precision, scale); err != nil {
		return "", err
	}
	in := strings.TrimSpace(s)
	neg := false
	switch {
	case strings.HasPrefix(in, "-"):
		neg, in = true, in[1:]
	case strings.HasPrefix(in, "+"):
		in = in[1:]
	}
	whole, frac, hasPoint := strings.Cut(in, ".")
	if (whole == "" && frac == "") || (hasPoint && frac == "" && whole == "") || !allDigits(whole) || !allDigits(frac) {
		return "", fmt.Errorf("%q is not a decimal number", s)
	}
	frac = strings.TrimRight(frac, "0")
	if len(frac) > int(scale) {
		return "", fmt.Errorf("%q has %d digits after the point; DECIMAL(%d,%d) keeps %d", s, len(frac), precision, scale, scale)
	}
	whole = strings.TrimLeft(whole, "0")
	if len(whole) > int(precision-scale) {
		return "", fmt.Errorf("%q has %d digits before the point; DECIMAL(%d,%d) allows %d", s, len(whole), precision, scale, precision-scale)
	}
	if whole == "" {
		whole = "0"
	}
	frac += strings.Repeat("0", int(scale)-len(frac))
	if strings.Trim(whole+frac, "0") == "" {
		neg = false
	}
	out := whole
	if scale > 0 {
		out += "." + frac
	}
	if neg {
		out = "-" + out
	}
	return out, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// DecimalFromUnscaled is the text of unscaled × 10^-scale ("1234", 2 → "12.34").
func DecimalFromUnscaled(unscaled *big.Int, scale uint8) string {
	digits := new(big.Int).Abs(unscaled).String()
	if len(digits) <= int(scale) {
		digits = strings.Repeat("0", int(scale)-len(digits)+1) + digits
	}
	out := digits
	if scale > 0 {
		out = digits[:len(digits)-int(scale)] + "." + digits[len(digits)-int(scale):]
	}
	if unscaled.Sign() < 0 {
		out = "-" + out
	}
	return out
}

// DecimalUnscaled is the inverse of DecimalFromUnscaled for a value
// ParseDecimal normalised to scale digits.
func DecimalUnscaled(s string, scale uint8) (*big.Int, error) {
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) != int(scale) {
		return nil, fmt.Errorf("decimal %q does not have %d digits after the point", s, scale)
	}
	v, ok := new(big.Int).SetString(whole+frac, 10)
	if !ok {
		return nil, fmt.Errorf("%q is not a decimal number", s)
	}
	return v, nil
}

// decimalOf converts an appended Go value to the column's decimal text.
func (c *Column) decimalOf(v any) (string, bool, error) {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case float64:
		s = strconv.FormatFloat(x, 'f', int(c.Scale), 64)
	case float32:
		s = strconv.FormatFloat(float64(x), 'f', int(c.Scale), 32)
	case *big.Int:
		if x == nil {
			return "", false, nil
		}
		s = x.String()
	case uint64:
		s = strconv.FormatUint(x, 10)
	default:
		i, ok := toInt64(v)
		if !ok {
			return "", false, nil
		}
		s = strconv.FormatInt(i, 10)
	}
	d, err := ParseDecimal(s, c.Precision, c.Scale)
	return d, true, err
}

// bigIntOf converts an appended Go value to a 128-bit integer.
func bigIntOf(v any) (*big.Int, bool) {
	var b *big.Int
	switch x := v.(type) {
	case *big.Int:
		if x == nil {
			return nil, false
		}
		b = new(big.Int).Set(x)
	case uint64:
		b = new(big.Int).SetUint64(x)
	case uint:
		b = new(big.Int).SetUint64(uint64(x))
	case string:
		var ok bool
		if b, ok = new(big.Int).SetString(strings.TrimSpace(x), 10); !ok {
			return nil, false
		}
	default:
		i, ok := toInt64(v)
		if !ok {
			return nil, false
		}
		b = big.NewInt(i)
	}
	return b, FitsInt128(b)
}

var (
	maxInt128 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 127), big.NewInt(1))
	minInt128 = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 127))
)

// FitsInt128 reports whether b is within HUGEINT's range.
func FitsInt128(b *big.Int) bool { return b.Cmp(maxInt128) <= 0 && b.Cmp(minInt128) >= 0 }

// DateOf is the calendar date of t in its own location, as midnight UTC: a
// DATE column's value (2024-03-10 in New York stays 2024-03-10).
func DateOf(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// WallOf is the clock reading of t in its own location, as a UTC time.Time
// truncated to microseconds: a TIMESTAMP column's value.
func WallOf(t time.Time) time.Time {
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	return time.Date(y, mo, d, h, mi, s, t.Nanosecond()/1000*1000, time.UTC)
}
