package protocol

import (
	"errors"
	"fmt"
	"math"
	"os"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/stratahq/strata/blocks/sdk"
)

// Large tables do not travel through the pipe. A pipe moves 64 KiB at a
// time: 100,000 rows x 2 columns took some 25 write/read rounds each way,
// each a copy into and out of the kernel and a wake-up of the other process
// (about 16x the cost of the Transform itself; issue 9). Instead each
// direction has one shared file, mapped by both processes: the writer
// encodes the tables straight into it and sends only the frame header,
// which says where they are (Message.Shared); the reader decodes them from
// its own mapping, the one copy it needs to own them.
//
// The file is reused for every frame, so the writer may only overwrite it
// once the reader is done with the previous frame: the reader stores the
// frame's sequence number into the file's first word after decoding, and
// the writer checks it. A writer that finds the file still in use, or
// cannot grow it (ENOSPC on /dev/shm), sends the tables inline, as before,
// so sharing never changes what arrives, only how fast.
//
// File layout: 64 bytes of header, then the tables in the table_codec
// layout. The header: uint64 consumed sequence at 0; uint32 owner at 8,
// held by the writer while it writes a frame and by the reader while it
// compares a frame's bytes (pass_through.go); uint64 written sequence at 16,
// the frame the file holds.

const (
	sharedHeader = 64
	// SharedMinBytes is the smallest table payload that goes through the
	// shared file; smaller ones are cheaper inline.
	SharedMinBytes = 32 << 10
)

// SharedRef is in the header of a frame whose tables are in the shared file.
type SharedRef struct {
	Seq  uint64 `json:"seq"`
	Size int64  `json:"size"` // the file's size when written
	Len  int    `json:"len"`  // bytes of tables after the file header
}

var errSharedBusy = errors.New("shared table file is still being read")

// Values of the owner word.
const (
	ownerFree   = 0
	ownerWriter = 1
	ownerReader = 2
)

// sharedOut is a Writer's side of a shared file.
type sharedOut struct {
	f   *os.File
	mem []byte
	seq uint64
}

func createSharedOut(path string) (*sharedOut, error) {
	if !sharingSupported {
		return nil, errors.New("shared table files are not supported on this system")
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	s := &sharedOut{f: f}
	if err := s.grow(1 << 20); err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}

// grow makes the file hold at least n bytes of tables. The space is
// allocated for real (fallocate), so a full tmpfs fails here rather than
// with SIGBUS on a write through the mapping.
func (s *sharedOut) grow(n int) error {
	need := int64(sharedHeader + n)
	if need <= int64(len(s.mem)) {
		return nil
	}
	size := max(need, 2*int64(len(s.mem)))
	if size > MaxFrame+sharedHeader {
		size = need
	}
	if err := allocateFile(s.f, size); err != nil {
		return err
	}
	mem, err := mapFile(s.f, size)
	if err != nil {
		return err
	}
	if s.mem != nil {
		_ = unmapFile(s.mem)
	}
	s.mem = mem
	return nil
}

// put encodes tables into the file and returns the reference for the frame
// header; errSharedBusy (or a grow error) means: send them inline.
func (s *sharedOut) put(tables []*sdk.Table, refs columnRefs) (*SharedRef, error) {
	if !atomic.CompareAndSwapUint32(ownerWord(s.mem), ownerFree, ownerWriter) {
		return nil, errSharedBusy // the reader is comparing the last frame
	}
	// Released through the mapping in use at the end: grow may replace it.
	defer func() { atomic.StoreUint32(ownerWord(s.mem), ownerFree) }()
	if atomic.LoadUint64(consumedWord(s.mem)) != s.seq {
		return nil, errSharedBusy
	}
	n := payloadSize(tables, refs)
	if err := s.grow(n); err != nil {
		return nil, err
	}
	buf := s.mem[sharedHeader:sharedHeader:len(s.mem)]
	var err error
	for _, t := range tables {
		if buf, err = appendTable(buf, t, refs); err != nil {
			return nil, err
		}
	}
	if len(buf) != n || unsafe.SliceData(buf) != &s.mem[sharedHeader] {
		return nil, fmt.Errorf("shared table file: encoded %d bytes, expected %d", len(buf), n)
	}
	s.seq++
	atomic.StoreUint64(writtenWord(s.mem), s.seq)
	return &SharedRef{Seq: s.seq, Size: int64(len(s.mem)), Len: n}, nil
}

func (s *sharedOut) close() {
	if s.mem != nil {
		_ = unmapFile(s.mem)
		s.mem = nil
	}
	_ = s.f.Close()
}

// sharedIn is a Reader's side: the one file it accepts tables from.
type sharedIn struct {
	path string
	f    *os.File
	// mu orders the mapping's replacement (remap, close) with the
	// comparisons of pass-through columns, which run on another goroutine.
	mu  sync.Mutex
	mem []byte
}

// tables decodes the n tables ref points at and releases the file to the
// writer. resolve resolves references to input columns; with record, the
// result also says where the tables' word columns were in the file.
func (s *sharedIn) tables(ref *SharedRef, n int, resolve func(table, col int) *sdk.Column, record bool) ([]*sdk.Table, *SharedInputs, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ref.Len < 0 || ref.Size < sharedHeader || int64(ref.Len) > ref.Size-sharedHeader {
		return nil, nil, fmt.Errorf("corrupt shared table reference %+v", *ref)
	}
	if int64(len(s.mem)) < ref.Size {
		if err := s.remap(ref.Size); err != nil {
			return nil, nil, fmt.Errorf("shared table file %s: %w", s.path, err)
		}
	}
	var inputs *SharedInputs
	if record {
		inputs = &SharedInputs{in: s, seq: ref.Seq}
	}
	off := sharedHeader
	out := make([]*sdk.Table, 0, n)
	for i := 0; i < n; i++ {
		var seen func(col int, c *sdk.Column, at int)
		if inputs != nil && i <= math.MaxUint16 {
			base := off
			seen = func(col int, c *sdk.Column, at int) {
				if data, ok := wordData(c); ok && col <= math.MaxUint16 {
					inputs.cols = append(inputs.cols, sharedInput{ref: inputRef{uint16(i), uint16(col)}, data: data, n: c.Len(), off: base + at})
				}
			}
		}
		t, used, err := decodeTable(s.mem[off:sharedHeader+ref.Len], resolve, seen)
		if err != nil {
			return nil, nil, fmt.Errorf("table %d: %w", i, err)
		}
		out = append(out, t)
		off += used
	}
	atomic.StoreUint64(consumedWord(s.mem), ref.Seq)
	return out, inputs, nil
}

func (s *sharedIn) remap(size int64) error {
	if s.f == nil {
		f, err := os.OpenFile(s.path, os.O_RDWR, 0)
		if err != nil {
			return err
		}
		s.f = f
	}
	// Map no more than the file holds: touching a page past its end would
	// be SIGBUS, not an error.
	st, err := s.f.Stat()
	if err != nil {
		return err
	}
	if st.Size() < size {
		return fmt.Errorf("file has %d bytes, the frame says %d", st.Size(), size)
	}
	mem, err := mapFile(s.f, size)
	if err != nil {
		return err
	}
	if s.mem != nil {
		_ = unmapFile(s.mem)
	}
	s.mem = mem
	return nil
}

func (s *sharedIn) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mem != nil {
		_ = unmapFile(s.mem)
		s.mem = nil
	}
	if s.f != nil {
		_ = s.f.Close()
	}
}

// consumedWord is the file's first word, the last sequence the reader is done with.
func consumedWord(mem []byte) *uint64 {
	_ = mem[7]
	return (*uint64)(unsafe.Pointer(&mem[0]))
}

// ownerWord says who may touch the tables in the file (ownerFree, ...).
func ownerWord(mem []byte) *uint32 {
	_ = mem[11]
	return (*uint32)(unsafe.Pointer(&mem[8]))
}

// writtenWord is the sequence of the frame the file holds.
func writtenWord(mem []byte) *uint64 {
	_ = mem[23]
	return (*uint64)(unsafe.Pointer(&mem[16]))
}
