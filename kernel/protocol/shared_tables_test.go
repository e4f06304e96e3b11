package protocol

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
)

func bigTable(n int) *sdk.Table {
	ids := make([]int64, n)
	amounts := make([]float64, n)
	names := make([]string, n)
	for i := range ids {
		ids[i], amounts[i], names[i] = int64(i)*7-3, float64(i%97)/3, "n"+string(rune('a'+i%26))
	}
	t := sdk.NewTable()
	t.AddColumn(sdk.Int64sFrom("id", ids, nil))
	t.AddColumn(sdk.Float64sFrom("amount", amounts, nil))
	t.AddColumn(sdk.StringsFrom("name", names, nil))
	return t
}

func sameTable(t *testing.T, got, want *sdk.Table) {
	t.Helper()
	if got.Len() != want.Len() || len(got.Columns()) != len(want.Columns()) {
		t.Fatalf("shape %dx%d, want %dx%d", got.Len(), len(got.Columns()), want.Len(), len(want.Columns()))
	}
	for j, c := range want.Columns() {
		for i := 0; i < want.Len(); i += 997 {
			if g, w := got.Columns()[j].Value(i), c.Value(i); g != w {
				t.Fatalf("row %d %s: %v, want %v", i, c.Name, g, w)
			}
		}
	}
}

// TestSharedTables: a large table travels through the shared file (the
// stream carries only the header), arrives intact, and a frame written
// while the reader has not yet read the previous one goes inline instead
// of overwriting it.
func TestSharedTables(t *testing.T) {
	if !sharingSupported {
		t.Skip("no shared mappings on this system")
	}
	path := filepath.Join(t.TempDir(), SharedToKernel)
	var stream bytes.Buffer
	w := NewWriter(&stream)
	if err := w.ShareTables(path); err != nil {
		t.Fatal(err)
	}
	defer w.CloseShared()
	r := NewReader(&stream)
	r.AcceptShared(path)
	defer r.CloseShared()

	big := bigTable(100_000)
	for round := 0; round < 3; round++ { // the file is reused, and grows past its first 1 MiB
		if err := w.Write(&Message{Type: TypeExec, ID: "a"}, big); err != nil {
			t.Fatal(err)
		}
		if stream.Len() > 4096 {
			t.Fatalf("round %d: %d bytes went through the stream, want only the header", round, stream.Len())
		}
		m, tables, err := r.Read()
		if err != nil {
			t.Fatal(err)
		}
		if m.Shared == nil || len(tables) != 1 {
			t.Fatalf("round %d: shared %v, %d tables", round, m.Shared, len(tables))
		}
		sameTable(t, tables[0], big)
	}

	// Two frames before the reader reads: the second must not overwrite
	// the first in the file.
	other := bigTable(50_000)
	if err := w.Write(&Message{Type: TypeExec, ID: "1"}, big); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(&Message{Type: TypeExec, ID: "2"}, other); err != nil {
		t.Fatal(err)
	}
	m1, t1, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	m2, t2, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	if m1.Shared == nil || m2.Shared != nil {
		t.Fatalf("first frame shared %v, second %v: want shared then inline", m1.Shared, m2.Shared)
	}
	sameTable(t, t1[0], big)
	sameTable(t, t2[0], other)

	// Small tables stay inline.
	small := bigTable(10)
	if err := w.Write(&Message{Type: TypeResult}, small); err != nil {
		t.Fatal(err)
	}
	m, ts, err := r.Read()
	if err != nil || m.Shared != nil {
		t.Fatalf("small table: %v, shared %v", err, m.Shared)
	}
	sameTable(t, ts[0], small)
}

// TestSharedFrameWithoutAgreement: a frame that says its tables are in a
// shared file, read by a reader that accepted none, is an error, not an
// empty table.
func TestSharedFrameWithoutAgreement(t *testing.T) {
	if !sharingSupported {
		t.Skip("no shared mappings on this system")
	}
	var stream bytes.Buffer
	w := NewWriter(&stream)
	if err := w.ShareTables(filepath.Join(t.TempDir(), "f")); err != nil {
		t.Fatal(err)
	}
	defer w.CloseShared()
	if err := w.Write(&Message{Type: TypeResult}, bigTable(100_000)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := NewReader(&stream).Read(); err == nil {
		t.Fatal("read a shared frame without a shared file")
	}
}

// TestSharedTablesOwnTheirMemory: decoded tables own their memory. The
// shared file is rewritten for every frame, so a table a block keeps from
// one run to the next (in a package variable) must keep its values when
// the next frame arrives, and changing a decoded table must not touch the
// file or the next decode.
func TestSharedTablesOwnTheirMemory(t *testing.T) {
	if !sharingSupported {
		t.Skip("no shared mappings on this system")
	}
	path := filepath.Join(t.TempDir(), SharedToKernel)
	var stream bytes.Buffer
	w := NewWriter(&stream)
	if err := w.ShareTables(path); err != nil {
		t.Fatal(err)
	}
	defer w.CloseShared()
	r := NewReader(&stream)
	r.AcceptShared(path)
	defer r.CloseShared()

	first, second := bigTable(100_000), bigTable(100_000)
	ids, amounts := second.Column("id").Int64s(), second.Column("amount").Float64s()
	for i := range ids {
		ids[i], amounts[i] = -ids[i], amounts[i]+1
	}
	var kept []*sdk.Table
	for _, in := range []*sdk.Table{first, second} {
		if err := w.Write(&Message{Type: TypeExec}, in); err != nil {
			t.Fatal(err)
		}
		m, tables, err := r.Read()
		if err != nil || m.Shared == nil {
			t.Fatalf("read: %v, shared %v", err, m.Shared)
		}
		kept = append(kept, tables[0])
	}
	sameTable(t, kept[0], first) // the second frame overwrote the file
	sameTable(t, kept[1], second)

	// Writing into a decoded column changes that table only.
	kept[1].Column("id").Int64s()[5] = 12345
	kept[1].Column("amount").Float64s()[5] = 0.5
	if err := w.Write(&Message{Type: TypeExec}, second); err != nil {
		t.Fatal(err)
	}
	_, again, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	if got := again[0].Column("id").Int64s()[5]; got != ids[5] {
		t.Fatalf("id[5] decoded as %d after a change to an earlier decode, want %d", got, ids[5])
	}
	if got := kept[0].Column("id").Int64s()[5]; got != first.Column("id").Int64s()[5] {
		t.Fatalf("the first table's id[5] is %d", got)
	}
}
