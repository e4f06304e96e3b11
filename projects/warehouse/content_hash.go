package warehouse

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"

	"github.com/stratahq/strata/blocks/sdk"
)

// A version's content hash identifies its rows as a multiset: two versions
// of a partition with the same schema and the same rows, in any order, have
// the same hash, so a diff or a review calls a partition unchanged from the
// catalog alone, without reading either version.
//
// It is computed in Go from the table being published, column by column,
// before the rows go to DuckDB: a 64-bit hash per row, summed (a sum, not an
// XOR, which would cancel duplicate rows; order-independent either way),
// folded with the schema and the row count through SHA-256. Hashing the rows
// in DuckDB after the insert was the first try: filtering the new version out
// of a storage table that holds every other version made a 1M-row publish
// into a large table twice as slow, while this costs a few percent of a
// publish (BenchmarkPublishRows). Times are hashed at microseconds, DuckDB's
// precision, so a table and its copy read back from DuckDB agree. Equal
// hashes are trusted only with equal schemas and row counts; a diff that
// finds the hashes different still compares the rows, so a hash can make a
// diff slower, never wrong.

// contentHash hashes the rows of t with the given schema.
func contentHash(t *sdk.Table, schema []sdk.Field) string {
	n := t.Len()
	rows := make([]uint64, n)
	for j, c := range t.Columns() {
		seed := mix64(uint64(j) + 0x9e3779b97f4a7c15)
		nulls := c.Nulls()
		null := func(i int) bool { return nulls != nil && nulls[i] }
		nullHash := seed ^ 0x5bd1e995
		// One loop per type, the column's slice hoisted: a type switch per
		// value cost more than the hashing.
		switch c.Type {
		case sdk.TypeInt64:
			for i, v := range c.Int64s() {
				h := nullHash
				if !null(i) {
					h = mix64(uint64(v) ^ seed)
				}
				rows[i] = combine(rows[i], h)
			}
		case sdk.TypeFloat64:
			for i, f := range c.Float64s() {
				h := nullHash
				if !null(i) {
					if f == 0 {
						f = 0 // -0 and 0 are one value to DuckDB
					}
					h = mix64(math.Float64bits(f) ^ seed)
				}
				rows[i] = combine(rows[i], h)
			}
		case sdk.TypeString, sdk.TypeDecimal:
			for i, v := range c.Strings() {
				h := nullHash
				if !null(i) {
					h = mix64(fnv64(v) ^ seed)
				}
				rows[i] = combine(rows[i], h)
			}
		case sdk.TypeBool:
			for i, v := range c.Bools() {
				h := nullHash
				if !null(i) {
					h = mix64(seed ^ 2)
					if v {
						h = mix64(seed ^ 1)
					}
				}
				rows[i] = combine(rows[i], h)
			}
		case sdk.TypeUint64:
			for i, v := range c.Uint64s() {
				h := nullHash
				if !null(i) {
					h = mix64(v ^ seed)
				}
				rows[i] = combine(rows[i], h)
			}
		case sdk.TypeInt128:
			for i, v := range c.BigInts() {
				h := nullHash
				if !null(i) && v != nil {
					h = mix64(fnv64(v.String()) ^ seed)
				}
				rows[i] = combine(rows[i], h)
			}
		case sdk.TypeTime, sdk.TypeDate, sdk.TypeTimestamp:
			for i, v := range c.Times() {
				h := nullHash
				if !null(i) {
					h = mix64(uint64(v.UnixMicro()) ^ seed ^ 0x2545f4914f6cdd1d)
				}
				rows[i] = combine(rows[i], h)
			}
		}
	}
	var sum uint64
	for _, h := range rows {
		sum += h
	}
	d := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d\x00%x", encodeSchema(schema), n, sum)))
	return hex.EncodeToString(d[:16])
}

// combine folds one column's value hash into a row's, in column order: a
// row (a, b) differs from (b, a).
func combine(row, h uint64) uint64 { return mix64(row*31 + h) }

// mix64 is SplitMix64's finalizer: a cheap, well-spread 64-bit mix.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

func fnv64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
