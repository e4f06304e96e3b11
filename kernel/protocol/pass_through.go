package protocol

import (
	"bytes"
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/stratahq/strata/blocks/sdk"
)

// Pass-through columns. A Transform often returns some of its input
// columns as they are (a key next to the values it computed). Sent back,
// such a column costs an encode in the kernel, a decode in the coordinator
// and the coordinator's allocation of a copy of what it already holds:
// for 100,000 rows as much as the rest of the round trip. Instead the
// kernel sends a reference, "the values of input table T, column C", and
// the coordinator uses its own column (as the same function called
// in-process would).
//
// A reference is only sent when it is certainly right. The output column
// must be the very slice the kernel decoded for that input (same memory,
// same length), without nulls, and still hold the bytes the coordinator
// sent: they are compared with the shared file, whose frame is still the
// exec's (the kernel holds the file's owner word while it compares, so the
// coordinator cannot write a new frame there meanwhile; a coordinator that
// finds it held sends its tables inline). The coordinator asks for
// references (Message.Refs on the exec) and resolves them against that
// exec's inputs. Only int64 and float64 columns are referenced.

// inputRef names a column of the tables a message carried.
type inputRef struct{ table, col uint16 }

// columnRefs are the output columns that go as references.
type columnRefs map[*sdk.Column]inputRef

// sharedInput is a word column decoded from the shared file: its decoded
// slice and where its bytes are in the file.
type sharedInput struct {
	ref  inputRef
	data unsafe.Pointer
	n    int
	off  int // in the mapping
}

// SharedInputs are the word columns of one frame decoded from the shared
// file; the frame's tables can then be answered with references.
type SharedInputs struct {
	in   *sharedIn
	seq  uint64
	cols []sharedInput
}

// refs finds the columns of t that are inputs of the frame, unchanged.
func (s *SharedInputs) refs(t *sdk.Table) columnRefs {
	if s == nil || t == nil || len(s.cols) == 0 {
		return nil
	}
	var refs columnRefs
	s.in.mu.Lock()
	defer s.in.mu.Unlock()
	mem := s.in.mem
	if len(mem) < sharedHeader {
		return nil
	}
	owner := ownerWord(mem)
	if !atomic.CompareAndSwapUint32(owner, ownerFree, ownerReader) {
		return nil // the coordinator is writing a frame
	}
	defer atomic.StoreUint32(owner, ownerFree)
	if atomic.LoadUint64(writtenWord(mem)) != s.seq {
		return nil // a later frame is in the file
	}
	n := t.Len()
	for _, c := range t.Columns() {
		data, ok := wordData(c)
		if !ok || c.HasNulls() {
			continue
		}
		for _, in := range s.cols {
			if in.data != data || in.n != n || in.off+8*n > len(mem) {
				continue
			}
			if bytes.Equal(unsafe.Slice((*byte)(data), 8*n), mem[in.off:in.off+8*n]) {
				if refs == nil {
					refs = columnRefs{}
				}
				refs[c] = in.ref
			}
			break
		}
	}
	return refs
}

// wordData is the first value of an int64 or float64 column.
func wordData(c *sdk.Column) (unsafe.Pointer, bool) {
	switch c.Type {
	case sdk.TypeInt64:
		if v := c.Int64s(); len(v) > 0 {
			return unsafe.Pointer(unsafe.SliceData(v)), true
		}
	case sdk.TypeFloat64:
		if v := c.Float64s(); len(v) > 0 {
			return unsafe.Pointer(unsafe.SliceData(v)), true
		}
	}
	return nil, false
}

// inputColumn is the column a reference names, for a table of n rows. The
// column shares the input's values; its capacity ends at its length, so an
// append to either column cannot write into the other.
func inputColumn(resolve func(table, col int) *sdk.Column, name string, typ sdk.Type, n, table, col int) (*sdk.Column, error) {
	if resolve == nil {
		return nil, fmt.Errorf("column %q refers to input %d.%d, and this message answers none", name, table, col)
	}
	in := resolve(table, col)
	switch {
	case in == nil:
		return nil, fmt.Errorf("column %q refers to input %d.%d, which does not exist", name, table, col)
	case in.Type != typ || in.Len() != n || in.HasNulls():
		return nil, fmt.Errorf("column %q refers to input %d.%d of type %s with %d values, expected %s with %d and no nulls", name, table, col, in.Type, in.Len(), typ, n)
	}
	switch typ {
	case sdk.TypeInt64:
		return sdk.Int64sFrom(name, in.Int64s()[:n:n], nil), nil
	case sdk.TypeFloat64:
		return sdk.Float64sFrom(name, in.Float64s()[:n:n], nil), nil
	}
	return nil, fmt.Errorf("column %q refers to an input of type %s; only int64 and float64 columns are referenced", name, typ)
}

// resolver resolves references against tables.
func resolver(tables []*sdk.Table) func(table, col int) *sdk.Column {
	if tables == nil {
		return nil
	}
	return func(table, col int) *sdk.Column {
		if table >= len(tables) || tables[table] == nil || col >= len(tables[table].Columns()) {
			return nil
		}
		return tables[table].Columns()[col]
	}
}
