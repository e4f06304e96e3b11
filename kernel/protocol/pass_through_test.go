package protocol

import (
	"bytes"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
)

// passPair is a coordinator and a kernel end of a stream pair: large tables
// go to the kernel through a shared file, results come back inline (their
// size shows what travelled by value).
type passPair struct {
	cw   *Writer // coordinator -> kernel
	kr   *Reader
	kw   *Writer // kernel -> coordinator
	cr   *Reader
	back *bytes.Buffer
}

func newPassPair(t *testing.T, inputs func(id string) []*sdk.Table) *passPair {
	t.Helper()
	if !sharingSupported {
		t.Skip("no shared mappings on this system")
	}
	path := filepath.Join(t.TempDir(), SharedToKernel)
	var to, back bytes.Buffer
	p := &passPair{cw: NewWriter(&to), kr: NewReader(&to), kw: NewWriter(&back), cr: NewReader(&back), back: &back}
	if err := p.cw.ShareTables(path); err != nil {
		t.Fatal(err)
	}
	p.kr.AcceptShared(path)
	p.cr.ResolveInputs(inputs)
	t.Cleanup(func() { p.cw.CloseShared(); p.kr.CloseShared() })
	return p
}

// exec sends in to the kernel and returns the kernel's decoded copy.
func (p *passPair) exec(t *testing.T, in *sdk.Table) (*sdk.Table, *SharedInputs) {
	t.Helper()
	if err := p.cw.Write(&Message{Type: TypeExec, ID: "x", Refs: true}, in); err != nil {
		t.Fatal(err)
	}
	m, tables, err := p.kr.Read()
	if err != nil || m.Shared == nil {
		t.Fatalf("exec: %v, shared %v", err, m.Shared)
	}
	return tables[0], p.kr.SharedInputs()
}

// result sends out back and returns what the coordinator decoded, with the
// bytes it took.
func (p *passPair) result(t *testing.T, inputs *SharedInputs, out *sdk.Table) (*sdk.Table, int) {
	t.Helper()
	p.back.Reset()
	if err := p.kw.WriteAnswer(&Message{Type: TypeResult, ID: "x"}, inputs, out); err != nil {
		t.Fatal(err)
	}
	size := p.back.Len()
	_, tables, err := p.cr.Read()
	if err != nil {
		t.Fatal(err)
	}
	return tables[0], size
}

// TestPassThroughColumns: an output column that is an input column as the
// kernel decoded it, unchanged, comes back as a reference and the
// coordinator uses its own column; a column changed in place, a copy, or a
// frame the coordinator is writing over all go by value.
func TestPassThroughColumns(t *testing.T) {
	const n = 50_000
	in := bigTable(n)
	p := newPassPair(t, func(id string) []*sdk.Table {
		if id != "x" {
			return nil
		}
		return []*sdk.Table{in}
	})

	// Returned as it is: the word columns travel as references, the
	// string column by value; the coordinator's columns are its inputs'.
	got, inputs := p.exec(t, in)
	back, size := p.result(t, inputs, got)
	sameTable(t, back, in)
	if strings := encodedSize(in.Columns()[2:], n, nil); size > strings+200 {
		t.Errorf("result took %d bytes, want the string column's %d and little more", size, strings)
	}
	if &back.Column("id").Int64s()[0] != &in.Column("id").Int64s()[0] || &back.Column("amount").Float64s()[0] != &in.Column("amount").Float64s()[0] {
		t.Error("referenced columns are not the coordinator's own")
	}
	if c := back.Column("id").Int64s(); cap(c) != len(c) {
		t.Errorf("a referenced column has capacity %d over its %d values: an append would write into the input", cap(c), len(c))
	}

	// Changed in place, then returned: by value, with the change.
	got, inputs = p.exec(t, in)
	got.Column("id").Int64s()[n-1] = -42
	back, _ = p.result(t, inputs, got)
	if v := back.Column("id").Int64s()[n-1]; v != -42 {
		t.Fatalf("changed column came back with %d", v)
	}
	if &back.Column("id").Int64s()[0] == &in.Column("id").Int64s()[0] {
		t.Fatal("a changed column came back as a reference")
	}
	if &back.Column("amount").Float64s()[0] != &in.Column("amount").Float64s()[0] {
		t.Error("the unchanged column beside it did not come back as a reference")
	}

	// Equal values in another slice: by value.
	got, inputs = p.exec(t, in)
	copied := sdk.NewTable()
	copied.AddColumn(sdk.Int64sFrom("id", append([]int64(nil), got.Column("id").Int64s()...), nil))
	back, _ = p.result(t, inputs, copied)
	if &back.Column("id").Int64s()[0] == &in.Column("id").Int64s()[0] {
		t.Fatal("a copy came back as a reference")
	}

	// The coordinator holds the file (it is writing a frame): no references.
	got, inputs = p.exec(t, in)
	owner := ownerWord(p.cw.shared.mem)
	atomic.StoreUint32(owner, ownerWriter)
	back, _ = p.result(t, inputs, got)
	atomic.StoreUint32(owner, ownerFree)
	sameTable(t, back, in)
	if &back.Column("id").Int64s()[0] == &in.Column("id").Int64s()[0] {
		t.Fatal("referenced a frame while the file was being written")
	}

	// A later frame is in the file: no references to the earlier one.
	got, inputs = p.exec(t, in)
	other := bigTable(n)
	if err := p.cw.Write(&Message{Type: TypeExec, ID: "y"}, other); err != nil {
		t.Fatal(err)
	}
	back, _ = p.result(t, inputs, got)
	if &back.Column("id").Int64s()[0] == &in.Column("id").Int64s()[0] {
		t.Fatal("referenced a frame that a later one replaced")
	}
	if _, _, err := p.kr.Read(); err != nil {
		t.Fatal(err)
	}

	// While the kernel compares, the coordinator's next frame goes inline.
	p.exec(t, in)
	atomic.StoreUint32(ownerWord(p.kr.shared.mem), ownerReader)
	if err := p.cw.Write(&Message{Type: TypeExec, ID: "z"}, other); err != nil {
		t.Fatal(err)
	}
	atomic.StoreUint32(ownerWord(p.kr.shared.mem), ownerFree)
	m, ts, err := p.kr.Read()
	if err != nil || m.Shared != nil {
		t.Fatalf("frame written while the kernel held the file: %v, shared %v", err, m.Shared)
	}
	sameTable(t, ts[0], other)
}

// TestReferenceWithoutInputs: a reference the reader cannot resolve is an
// error, not a column of zeros.
func TestReferenceWithoutInputs(t *testing.T) {
	in := bigTable(1000)
	refs := columnRefs{in.Columns()[0]: {0, 0}}
	b, err := appendTable(nil, in, refs)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := DecodeTable(b); err == nil {
		t.Fatal("decoded a reference without inputs")
	}
	other := bigTable(999)
	if _, _, err := decodeTable(b, resolver([]*sdk.Table{other}), nil); err == nil {
		t.Fatal("decoded a reference to an input of another length")
	}
	if _, _, err := decodeTable(b, resolver(nil), nil); err == nil {
		t.Fatal("decoded a reference to a missing input")
	}
	out, _, err := decodeTable(b, resolver([]*sdk.Table{in}), nil)
	if err != nil {
		t.Fatal(err)
	}
	sameTable(t, out, in)
}
