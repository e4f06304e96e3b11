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
	mu  sync.Mutex
	w   *bufio.Writer
	buf []byte
}

// NewWriter wraps w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriterSize(w, 64<<10)} }

// Write sends one message with its tables and flushes.
func (fw *Writer) Write(m *Message, tables ...*sdk.Table) error {
	m.Tables = len(tables)
	header, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode %s message: %w", m.Type, err)
	}
	fw.mu.Lock()
	defer fw.mu.Unlock()
	body := fw.buf[:0]
	body = binary.LittleEndian.AppendUint32(body, 0) // total, patched below
	body = binary.LittleEndian.AppendUint32(body, uint32(len(header)))
	body = append(body, header...)
	for _, t := range tables {
		if body, err = AppendTable(body, t); err != nil {
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
	r   *bufio.Reader
	buf []byte
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
	rest := body[4+hlen:]
	tables := make([]*sdk.Table, 0, m.Tables)
	for i := 0; i < m.Tables; i++ {
		t, n, err := DecodeTable(rest)
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
