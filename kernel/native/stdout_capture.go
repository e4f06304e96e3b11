package native

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"sync"
	"time"
)

// stdoutCapture sends what compiled blocks write to stdout (fmt.Println,
// os.Stdout, even native code writing fd 1) to the running exec's stream.
// kernel/child has already moved the protocol off fd 1; here fd 1 becomes a
// pipe that one goroutine drains.
type stdoutCapture struct {
	w *os.File

	mu   sync.Mutex
	sink io.Writer // the running exec's stdout; nil between runs (then to stderr)
	seq  int
	seen chan int // flush markers as the reader meets them
}

var markerPrefix = []byte("\x00strata-flush-")

// captureStdout points stdout at w until release is called.
func (e *Executor) captureStdout(w io.Writer) (release func()) {
	if e.out == nil {
		c, err := newStdoutCapture()
		if err != nil {
			return func() {} // stdout then goes where kernel/child sent it (stderr)
		}
		e.out = c
	}
	e.out.mu.Lock()
	e.out.sink = w
	e.out.mu.Unlock()
	return func() {
		e.out.mu.Lock()
		e.out.sink = nil
		e.out.mu.Unlock()
	}
}

// flushStdout waits until everything written to stdout so far has reached
// the sink: it writes a marker and waits for the reader to meet it.
func (e *Executor) flushStdout() {
	if e.out == nil {
		return
	}
	e.out.mu.Lock()
	e.out.seq++
	n := e.out.seq
	e.out.mu.Unlock()
	if _, err := e.out.w.Write(append(append([]byte(nil), markerPrefix...), strconv.Itoa(n)+"\x00"...)); err != nil {
		return
	}
	timeout := time.After(2 * time.Second) // a reader that died must not hang the run
	for {
		select {
		case got := <-e.out.seen:
			if got >= n {
				return
			}
		case <-timeout:
			return
		}
	}
}

func newStdoutCapture() (*stdoutCapture, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	if err := redirectFD1(w); err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	os.Stdout = w
	c := &stdoutCapture{w: w, seen: make(chan int, 16)}
	go c.drain(r)
	return c, nil
}

// drain forwards the pipe to the sink, cutting out flush markers. A marker
// may arrive split over two reads, so a possible marker start is held back.
func (c *stdoutCapture) drain(r io.Reader) {
	buf := make([]byte, 64<<10)
	var pending []byte
	for {
		n, err := r.Read(buf)
		pending = append(pending, buf[:n]...)
		for {
			i := bytes.IndexByte(pending, 0)
			if i < 0 {
				c.forward(pending)
				pending = pending[:0]
				break
			}
			c.forward(pending[:i])
			rest := pending[i:]
			if !bytes.HasPrefix(rest, markerPrefix) {
				if len(rest) < len(markerPrefix) && bytes.HasPrefix(markerPrefix, rest) {
					pending = append(pending[:0], rest...)
					break // wait for the rest of a possible marker
				}
				c.forward(rest[:1]) // a NUL the block wrote
				pending = append(pending[:0], rest[1:]...)
				continue
			}
			end := bytes.IndexByte(rest[1:], 0)
			if end < 0 {
				pending = append(pending[:0], rest...)
				break
			}
			seq, _ := strconv.Atoi(string(rest[len(markerPrefix) : end+1]))
			select {
			case c.seen <- seq:
			default:
			}
			pending = append(pending[:0], rest[end+2:]...)
		}
		if err != nil {
			return
		}
	}
}

func (c *stdoutCapture) forward(p []byte) {
	if len(p) == 0 {
		return
	}
	c.mu.Lock()
	sink := c.sink
	c.mu.Unlock()
	if sink == nil {
		_, _ = os.Stderr.Write(p)
		return
	}
	_, _ = sink.Write(p)
}
