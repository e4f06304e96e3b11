package protocol

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// Int64 and float64 columns are the bulk of most tables. On a little-endian
// machine their in-memory bytes are already the wire layout, so they move
// as one memmove instead of a conversion per value: decoding 100,000 rows
// value by value was most of a decode (BenchmarkTableCodec100k).

// nativeLittle reports whether this machine stores words little endian.
var nativeLittle = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

type word interface{ int64 | float64 }

// appendWords appends vals as 8-byte little-endian words.
func appendWords[T word](b []byte, vals []T) []byte {
	if len(vals) == 0 {
		return b
	}
	if nativeLittle {
		return append(b, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(vals))), 8*len(vals))...)
	}
	for _, v := range vals {
		b = binary.LittleEndian.AppendUint64(b, wordBits(v))
	}
	return b
}

// decodeWords copies n 8-byte little-endian words out of raw (len(raw) == 8n)
// into a new slice the caller owns.
//
// On a little-endian machine the copy is an append to an empty byte slice,
// viewed as []T: append does not clear the memory it is about to overwrite,
// where make([]T, n) first zeroes all of it, which cost as much as the copy
// (perf of BenchmarkTransform100kCompiled, both processes). The bytes are a
// heap object of their own, aligned for 8-byte words (every allocation of a
// multiple of 8 bytes is), and like []T they hold no pointers.
func decodeWords[T word](raw []byte, n int) []T {
	if n == 0 {
		return []T{}
	}
	if nativeLittle {
		b := append([]byte(nil), raw[:8*n]...)
		return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
	}
	vals := make([]T, n)
	for j := range vals {
		vals[j] = wordFromBits[T](binary.LittleEndian.Uint64(raw[8*j:]))
	}
	return vals
}

func wordBits[T word](v T) uint64 {
	if f, ok := any(v).(float64); ok {
		return math.Float64bits(f)
	}
	return uint64(any(v).(int64))
}

func wordFromBits[T word](u uint64) T {
	var v T
	switch p := any(&v).(type) {
	case *float64:
		*p = math.Float64frombits(u)
	case *int64:
		*p = int64(u)
	}
	return v
}
