package interp

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"sync"
)

// fileCapture gives the interpreter a real *os.File as its stdout, so that
// os.Stdout in a block keeps its Go type and methods (WriteString, Fd, being
// passed where an *os.File is wanted) while its bytes reach the running exec's
// stream. fmt.Print and os.Stdout share the one pipe, so their order holds.
//
// The pipe is drained by one goroutine; flush writes a random marker and
// waits until the reader has passed it, so a run's result never leaves
// behind output written before it returned.
type fileCapture struct {
	w      *os.File
	r      *os.File
	marker []byte

	mu      sync.Mutex
	sink    io.Writer
	flushMu sync.Mutex // one marker in flight, so each flush waits for its own
	flushed chan struct{}
}

func newFileCapture() (*fileCapture, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	m := make([]byte, 24)
	_, _ = rand.Read(m)
	c := &fileCapture{w: w, r: r, marker: []byte(fmt.Sprintf("\x00strata-flush-%x\x00", m)), flushed: make(chan struct{}, 1)}
	go c.drain()
	return c, nil
}

// set directs what the block writes from now on; nil discards it.
func (c *fileCapture) set(w io.Writer) {
	c.mu.Lock()
	c.sink = w
	c.mu.Unlock()
}

func (c *fileCapture) deliver(p []byte) {
	if len(p) == 0 {
		return
	}
	c.mu.Lock()
	w := c.sink
	c.mu.Unlock()
	if w != nil {
		_, _ = w.Write(p)
	}
}

// flush returns once everything written to the pipe before it was called has
// been delivered.
func (c *fileCapture) flush() {
	c.flushMu.Lock()
	defer c.flushMu.Unlock()
	if _, err := c.w.Write(c.marker); err != nil {
		return
	}
	<-c.flushed
}

func (c *fileCapture) drain() {
	buf := make([]byte, 32<<10)
	var pending []byte
	for {
		n, err := c.r.Read(buf)
		pending = append(pending, buf[:n]...)
		for {
			i := bytes.Index(pending, c.marker)
			if i < 0 {
				break
			}
			c.deliver(pending[:i])
			pending = pending[i+len(c.marker):]
			c.flushed <- struct{}{}
		}
		// Keep back only what could be the start of a marker split across reads.
		keep := 0
		for k := min(len(pending), len(c.marker)-1); k > 0; k-- {
			if bytes.HasSuffix(pending, c.marker[:k]) {
				keep = k
				break
			}
		}
		c.deliver(pending[:len(pending)-keep])
		pending = append(pending[:0], pending[len(pending)-keep:]...)
		if err != nil {
			return
		}
	}
}

// flushingWriter flushes the captured stdout before each write, so that
// what a block prints and what it logs or writes to stderr keep their order.
type flushingWriter struct {
	c []*fileCapture // never the capture whose sink this writer is: its drain would wait on itself
	w io.Writer
}

func (f flushingWriter) Write(p []byte) (int, error) {
	for _, c := range f.c {
		c.flush()
	}
	return f.w.Write(p)
}
