package protocol

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/stratahq/strata/blocks/sdk"
)

// MaxFrame bounds one frame (1 GiB): a corrupt length must not make the
// reader allocate without limit.
const MaxFrame = 1 << 30

// Writer writes frames; safe for concurrent use.
type Writer struct {
	mu     sync.Mutex
	w      *bufio.Writer
	buf    []byte
	shared *sharedOut // nil: tables go inline
}

// NewWriter wraps w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriterSize(w, 64<<10)} }

// ShareTables makes large tables go through the file at path (created or
// truncated) instead of the stream; the peer's Reader must AcceptShared the
// same path. On a system without shared mappings it returns an error and
// tables stay inline.
func (fw *Writer) ShareTables(path string) error {
	s, err := createSharedOut(path)
	if err != nil {
		return err
	}
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if fw.shared != nil {
		fw.shared.close()
	}
	fw.shared = s
	return nil
}

// CloseShared unmaps the shared file; later tables go inline.
func (fw *Writer) CloseShared() {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if fw.shared != nil {
		fw.shared.close()
		fw.shared = nil
	}
}

// Write sends one message with its tables and flushes.
func (fw *Writer) Write(m *Message, tables ...*sdk.Table) error {
	return fw.write(m, nil, tables)
}

// WriteAnswer sends m, the answer to a message whose tables were in, with
// its tables: those of their columns that are unchanged columns of in go as
// references (pass_through.go). in may be nil.
func (fw *Writer) WriteAnswer(m *Message, in *SharedInputs, tables ...*sdk.Table) error {
	var refs columnRefs
	for _, t := range tables {
		for c, r := range in.refs(t) {
			if refs == nil {
				refs = columnRefs{}
			}
			refs[c] = r
		}
	}
	return fw.write(m, refs, tables)
}

func (fw *Writer) write(m *Message, refs columnRefs, tables []*sdk.Table) error {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	m.Tables = len(tables)
	m.Shared = nil
	if fw.shared != nil && len(tables) > 0 && payloadSize(tables, refs) >= SharedMinBytes {
		if ref, err := fw.shared.put(tables, refs); err == nil {
			m.Shared, tables = ref, nil
		}
		// Otherwise (the peer still reads the last frame, the file cannot
		// grow, a table is invalid) the tables go inline, where an invalid
		// table reports its error below.
	}
	header, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode %s message: %w", m.Type, err)
	}
	body := fw.buf[:0]
	body = binary.LittleEndian.AppendUint32(body, 0) // total, patched below
	body = binary.LittleEndian.AppendUint32(body, uint32(len(header)))
	body = append(body, header...)
	for _, t := range tables {
		if body, err = appendTable(body, t, refs); err != nil {
			return err
		}
	}
	if len(body)-4 > MaxFrame {
		return fmt.Errorf("%s message is %d bytes, over the %d byte frame limit", m.Type, len(body)-4, MaxFrame)
	}
	binary.LittleEndian.PutUint32(body, uint32(len(body)-4))
	if _, err := fw.w.Write(body); err != nil {
		return err
	}
	if cap(body) <= 1<<20 { // keep small buffers, let huge ones go
		fw.buf = body[:0]
	}
	return fw.w.Flush()
}

// Reader reads frames; not safe for concurrent use.
type Reader struct {
	r      *bufio.Reader
	buf    []byte
	shared *sharedIn
	// inputs gives the tables a message (by ID) answers, for column
	// references (ResolveInputs).
	inputs func(id string) []*sdk.Table
	last   *SharedInputs
}

// ResolveInputs lets answers carry their unchanged input columns as
// references (pass_through.go): inputs gives the tables sent with the
// message of that ID, nil if there is none. Set it before the first Read;
// the writer's messages then say Refs.
func (fr *Reader) ResolveInputs(inputs func(id string) []*sdk.Table) { fr.inputs = inputs }

// SharedInputs is what the last message read (one that asked for
// references, Message.Refs) carried through the shared file, for
// Writer.WriteAnswer; nil otherwise. The Reader lets go of it: it points at
// the decoded tables, which must not outlive their run here.
func (fr *Reader) SharedInputs() *SharedInputs {
	s := fr.last
	fr.last = nil
	return s
}

// AcceptShared lets frames carry their tables in the file at path, the one
// the peer's Writer shares (ShareTables). A frame that refers to a shared
// file when none was accepted is corrupt.
func (fr *Reader) AcceptShared(path string) {
	fr.CloseShared()
	fr.shared = &sharedIn{path: path}
}

// CloseShared unmaps the shared file. Not safe during Read.
func (fr *Reader) CloseShared() {
	if fr.shared != nil {
		fr.shared.close()
		fr.shared = nil
	}
}

// NewReader wraps r.
func NewReader(r io.Reader) *Reader { return &Reader{r: bufio.NewReaderSize(r, 64<<10)} }

// Read returns the next message and its tables. io.EOF means the peer closed cleanly.
func (fr *Reader) Read() (*Message, []*sdk.Table, error) {
	var lenb [4]byte
	if _, err := io.ReadFull(fr.r, lenb[:]); err != nil {
		return nil, nil, err
	}
	total := binary.LittleEndian.Uint32(lenb[:])
	if total < 4 || total > MaxFrame {
		return nil, nil, fmt.Errorf("corrupt frame: length %d", total)
	}
	if cap(fr.buf) < int(total) {
		fr.buf = make([]byte, total)
	}
	body := fr.buf[:total]
	if _, err := io.ReadFull(fr.r, body); err != nil {
		return nil, nil, fmt.Errorf("read frame: %w", err)
	}
	hlen := binary.LittleEndian.Uint32(body)
	if int(hlen) > len(body)-4 {
		return nil, nil, fmt.Errorf("corrupt frame: header length %d in a %d byte frame", hlen, total)
	}
	m := new(Message)
	if err := json.Unmarshal(body[4:4+hlen], m); err != nil {
		return nil, nil, fmt.Errorf("corrupt frame header: %w", err)
	}
	fr.last = nil
	var resolve func(table, col int) *sdk.Column
	if fr.inputs != nil && m.ID != "" && m.Tables > 0 {
		resolve = resolver(fr.inputs(m.ID))
	}
	if m.Shared != nil {
		if fr.shared == nil {
			return nil, nil, fmt.Errorf("corrupt frame: %s message refers to a shared table file, and none was agreed", m.Type)
		}
		tables, inputs, err := fr.shared.tables(m.Shared, m.Tables, resolve, m.Refs)
		if err != nil {
			return nil, nil, fmt.Errorf("%s message: %w", m.Type, err)
		}
		fr.last = inputs
		return m, tables, nil
	}
	rest := body[4+hlen:]
	tables := make([]*sdk.Table, 0, m.Tables)
	for i := 0; i < m.Tables; i++ {
		t, n, err := decodeTable(rest, resolve, nil)
		if err != nil {
			return nil, nil, fmt.Errorf("%s message, table %d: %w", m.Type, i, err)
		}
		tables = append(tables, t)
		rest = rest[n:]
	}
	if cap(fr.buf) > 16<<20 { // decoded tables copy out of buf; do not pin a huge one
		fr.buf = nil
	}
	return m, tables, nil
}

// payloadSize is the encoded size of tables.
func payloadSize(tables []*sdk.Table, refs columnRefs) int {
	n := 0
	for _, t := range tables {
		n += encodedSize(t.Columns(), t.Len(), refs)
	}
	return n
}
