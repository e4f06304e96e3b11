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
		for i := 0; i < n; i++ {
			var h uint64
			if nulls != nil && nulls[i] {
				h = seed ^ 0x5bd1e995
			} else {
				switch c.Type {
				case sdk.TypeInt64:
					h = mix64(uint64(c.Int64s()[i]) ^ seed)
				case sdk.TypeFloat64:
					f := c.Float64s()[i]
					if f == 0 {
						f = 0 // -0 and 0 are one value to DuckDB
					}
					h = mix64(math.Float64bits(f) ^ seed)
				case sdk.TypeString:
					h = mix64(fnv64(c.Strings()[i]) ^ seed)
				case sdk.TypeBool:
					if c.Bools()[i] {
						h = mix64(seed ^ 1)
					} else {
						h = mix64(seed ^ 2)
					}
				case sdk.TypeTime:
					h = mix64(uint64(c.Times()[i].UnixMicro()) ^ seed ^ 0x2545f4914f6cdd1d)
				}
			}
			// Combine columns in order: a row (a, b) differs from (b, a).
			rows[i] = mix64(rows[i]*31 + h)
		}
	}
	var sum uint64
	for _, h := range rows {
		sum += h
	}
	d := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d\x00%x", encodeSchema(schema), n, sum)))
	return hex.EncodeToString(d[:16])
}

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
