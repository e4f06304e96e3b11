package protocol

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// Table layout, little endian:
//
//	uint32 columns | uint32 rows
//	per column: uint16 name length | name | uint8 type | [uint8 precision | uint8 scale, decimals only]
//	            uint8 has nulls | [null bitmap, (rows+7)/8 bytes, when has nulls]
//	            values: int64, uint64, float64 bits and times (unix microseconds) as 8 bytes each;
//	            int128 as 16 bytes (low word, then high word, two's complement);
//	            bools as a bitmap; strings and decimal text as rows+1 uint32 offsets then the bytes.
//
// Times, dates and wall times travel as UTC microseconds, DuckDB's own
// precision (a date is its midnight, a wall time its reading as if in UTC).

// A column's nulls byte.
const (
	nullsNone   = 0 // no nulls; the values follow
	nullsBitmap = 1 // a null bitmap, then the values
	// nullsInput: no values follow but uint16 table, uint16 column: the
	// column's values are those of that column of the tables the reader
	// sent with the message this one answers (pass_through.go).
	nullsInput = 2
)

// AppendTable encodes t after b.
func AppendTable(b []byte, t *sdk.Table) ([]byte, error) { return appendTable(b, t, nil) }

// appendTable encodes t after b; the columns in refs go as references to
// the reader's own input columns.
func appendTable(b []byte, t *sdk.Table, refs columnRefs) ([]byte, error) {
	if err := t.Validate(); err != nil {
		return b, err
	}
	cols := t.Columns()
	n := t.Len()
	// Grow once: appending 100,000 values one by one to a growing slice
	// spent most of an encode copying the slice over and over.
	b = slices.Grow(b, encodedSize(cols, n, refs))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(cols)))
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	for _, c := range cols {
		if len(c.Name) > math.MaxUint16 {
			return b, fmt.Errorf("column name of %d bytes is too long", len(c.Name))
		}
		b = binary.LittleEndian.AppendUint16(b, uint16(len(c.Name)))
		b = append(b, c.Name...)
		b = append(b, byte(c.Type))
		if c.Type == sdk.TypeDecimal {
			b = append(b, c.Precision, c.Scale)
		}
		if ref, ok := refs[c]; ok {
			b = append(b, nullsInput)
			b = binary.LittleEndian.AppendUint16(b, ref.table)
			b = binary.LittleEndian.AppendUint16(b, ref.col)
			continue
		}
		if c.HasNulls() {
			b = append(b, nullsBitmap)
			b = appendBitmap(b, c.Nulls())
		} else {
			b = append(b, nullsNone)
		}
		switch c.Type {
		case sdk.TypeInt64:
			b = appendWords(b, c.Int64s())
		case sdk.TypeFloat64:
			b = appendWords(b, c.Float64s())
		case sdk.TypeTime, sdk.TypeDate, sdk.TypeTimestamp:
			for _, v := range c.Times() {
				b = binary.LittleEndian.AppendUint64(b, uint64(v.UnixMicro()))
			}
		case sdk.TypeUint64:
			for _, v := range c.Uint64s() {
				b = binary.LittleEndian.AppendUint64(b, v)
			}
		case sdk.TypeInt128:
			for _, v := range c.BigInts() {
				lo, hi := int128Words(v)
				b = binary.LittleEndian.AppendUint64(b, lo)
				b = binary.LittleEndian.AppendUint64(b, hi)
			}
		case sdk.TypeBool:
			b = appendBitmap(b, c.Bools())
		case sdk.TypeString, sdk.TypeDecimal:
			vals := c.Strings()
			off := uint32(0)
			b = binary.LittleEndian.AppendUint32(b, 0)
			for _, s := range vals {
				off += uint32(len(s))
				b = binary.LittleEndian.AppendUint32(b, off)
			}
			for _, s := range vals {
				b = append(b, s...)
			}
		}
	}
	return b, nil
}

// encodedSize is the size appendTable writes for these columns.
func encodedSize(cols []*sdk.Column, n int, refs columnRefs) int {
	size := 8
	bitmap := (n + 7) / 8
	for _, c := range cols {
		size += 2 + len(c.Name) + 2
		if _, ok := refs[c]; ok {
			size += 4
			if c.Type == sdk.TypeDecimal {
				size += 2
			}
			continue
		}
		if c.HasNulls() {
			size += bitmap
		}
		switch c.Type {
		case sdk.TypeBool:
			size += bitmap
		case sdk.TypeString, sdk.TypeDecimal:
			size += 4 * (n + 1)
			if c.Type == sdk.TypeDecimal {
				size += 2
			}
			for _, v := range c.Strings() {
				size += len(v)
			}
		case sdk.TypeInt128:
			size += 16 * n
		default:
			size += 8 * n
		}
	}
	return size
}

func appendBitmap(b []byte, bits []bool) []byte {
	start := len(b)
	for i := 0; i < (len(bits)+7)/8; i++ {
		b = append(b, 0)
	}
	for i, v := range bits {
		if v {
			b[start+i/8] |= 1 << (i % 8)
		}
	}
	return b
}

var errShort = errors.New("table data is truncated")

var mask64 = new(big.Int).SetUint64(math.MaxUint64)

// int128Words splits v (within HUGEINT's range; nil is zero) into the low
// and high 64-bit words of its two's complement.
func int128Words(v *big.Int) (lo, hi uint64) {
	if v == nil {
		return 0, 0
	}
	lo = new(big.Int).And(v, mask64).Uint64() // And on a negative value works on two's complement
	hi = uint64(new(big.Int).Rsh(v, 64).Int64())
	return lo, hi
}

// int128Value is the inverse of int128Words.
func int128Value(lo, hi uint64) *big.Int {
	v := new(big.Int).SetInt64(int64(hi))
	v.Lsh(v, 64)
	return v.Or(v, new(big.Int).SetUint64(lo))
}

// DecodeTable reads one table from b and returns it with the bytes consumed.
// The table owns its memory: nothing aliases b.
func DecodeTable(b []byte) (*sdk.Table, int, error) { return decodeTable(b, nil, nil) }

// decodeTable is DecodeTable. resolve, when not nil, gives the input column
// a reference names (nil: no such column); seen, when not nil, learns each
// int64 or float64 column without nulls and where its values were in b.
func decodeTable(b []byte, resolve func(table, col int) *sdk.Column, seen func(col int, c *sdk.Column, off int)) (*sdk.Table, int, error) {
	d := decoder{b: b}
	ncols := int(d.u32())
	nrows := int(d.u32())
	if d.err != nil {
		return nil, 0, d.err
	}
	// Every column needs at least a bit per row, but for a reference to an
	// input column, which must have as many.
	if nrows > len(b) && ncols > 0 && resolve == nil {
		return nil, 0, fmt.Errorf("table claims %d rows in %d bytes", nrows, len(b))
	}
	t := sdk.NewTable()
	for i := 0; i < ncols && d.err == nil; i++ {
		name := string(d.bytes(int(d.u16())))
		typ := sdk.Type(d.u8())
		var precision, scale uint8
		if typ == sdk.TypeDecimal {
			precision, scale = d.u8(), d.u8()
		}
		var nulls []bool
		switch d.u8() {
		case nullsBitmap:
			nulls = d.bitmap(nrows)
		case nullsInput:
			tbl, col := int(d.u16()), int(d.u16())
			if d.err != nil {
				break
			}
			c, err := inputColumn(resolve, name, typ, nrows, tbl, col)
			if err != nil {
				d.fail(err)
				break
			}
			t.AddColumn(c)
			continue
		case nullsNone:
		default:
			d.fail(fmt.Errorf("column %q: corrupt nulls flag", name))
		}
		if d.err != nil {
			break
		}
		switch typ {
		case sdk.TypeInt64:
			raw := d.bytes(8 * nrows)
			if d.err != nil {
				break
			}
			c := sdk.Int64sFrom(name, decodeWords[int64](raw, nrows), nulls)
			if seen != nil && nulls == nil {
				seen(i, c, d.off-len(raw))
			}
			t.AddColumn(c)
		case sdk.TypeFloat64:
			raw := d.bytes(8 * nrows)
			if d.err != nil {
				break
			}
			c := sdk.Float64sFrom(name, decodeWords[float64](raw, nrows), nulls)
			if seen != nil && nulls == nil {
				seen(i, c, d.off-len(raw))
			}
			t.AddColumn(c)
		case sdk.TypeTime, sdk.TypeDate, sdk.TypeTimestamp:
			raw := d.bytes(8 * nrows)
			if d.err != nil {
				break
			}
			vals := make([]time.Time, nrows)
			for j := range vals {
				vals[j] = time.UnixMicro(int64(binary.LittleEndian.Uint64(raw[8*j:]))).UTC()
			}
			switch typ {
			case sdk.TypeDate:
				t.AddColumn(sdk.DatesFrom(name, vals, nulls))
			case sdk.TypeTimestamp:
				t.AddColumn(sdk.TimestampsFrom(name, vals, nulls))
			default:
				t.AddColumn(sdk.TimesFrom(name, vals, nulls))
			}
		case sdk.TypeUint64:
			raw := d.bytes(8 * nrows)
			if d.err != nil {
				break
			}
			vals := make([]uint64, nrows)
			for j := range vals {
				vals[j] = binary.LittleEndian.Uint64(raw[8*j:])
			}
			t.AddColumn(sdk.Uint64sFrom(name, vals, nulls))
		case sdk.TypeInt128:
			raw := d.bytes(16 * nrows)
			if d.err != nil {
				break
			}
			vals := make([]*big.Int, nrows)
			for j := range vals {
				if nulls == nil || !nulls[j] {
					vals[j] = int128Value(binary.LittleEndian.Uint64(raw[16*j:]), binary.LittleEndian.Uint64(raw[16*j+8:]))
				}
			}
			t.AddColumn(sdk.BigIntsFrom(name, vals, nulls))
		case sdk.TypeBool:
			t.AddColumn(sdk.BoolsFrom(name, d.bitmap(nrows), nulls))
		case sdk.TypeString, sdk.TypeDecimal:
			offs := d.bytes(4 * (nrows + 1))
			if d.err != nil {
				break
			}
			size := int(binary.LittleEndian.Uint32(offs[4*nrows:]))
			raw := d.bytes(size)
			if d.err != nil {
				break
			}
			blob := string(raw) // one allocation; values slice into it
			vals := make([]string, nrows)
			prev := 0
			for j := range vals {
				end := int(binary.LittleEndian.Uint32(offs[4*(j+1):]))
				if end < prev || end > len(blob) {
					d.err = fmt.Errorf("column %q: corrupt string offsets", name)
					break
				}
				vals[j] = blob[prev:end]
				prev = end
			}
			if typ == sdk.TypeDecimal {
				t.AddColumn(sdk.DecimalsFrom(name, precision, scale, vals, nulls))
			} else {
				t.AddColumn(sdk.StringsFrom(name, vals, nulls))
			}
		default:
			d.fail(fmt.Errorf("column %q has unknown type %d", name, typ))
		}
	}
	if d.err != nil {
		return nil, 0, d.err
	}
	if err := t.Validate(); err != nil {
		return nil, 0, err
	}
	return t, d.off, nil
}

type decoder struct {
	b   []byte
	off int
	err error
}

func (d *decoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

func (d *decoder) bytes(n int) []byte {
	if d.err != nil || n < 0 || d.off+n > len(d.b) {
		d.fail(errShort)
		return nil
	}
	out := d.b[d.off : d.off+n]
	d.off += n
	return out
}

func (d *decoder) u8() uint8 {
	if b := d.bytes(1); b != nil {
		return b[0]
	}
	return 0
}

func (d *decoder) u16() uint16 {
	if b := d.bytes(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if b := d.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *decoder) bitmap(n int) []bool {
	raw := d.bytes((n + 7) / 8)
	if raw == nil {
		return nil // d.err says why; nothing is allocated for a corrupt count
	}
	out := make([]bool, n)
	for i := range out {
		out[i] = raw[i/8]&(1<<(i%8)) != 0
	}
	return out
}
