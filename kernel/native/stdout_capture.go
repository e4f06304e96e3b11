package native

import (
	"errors"
	"io"
	"os"
	"sync"
	"syscall"
)

// stdoutCapture sends what compiled blocks write to stdout (fmt.Println,
// os.Stdout, even native code writing fd 1) to the running exec's stream.
// kernel/child has already moved the protocol off fd 1; here fd 1 becomes a
// pipe that one goroutine drains.
//
// A run ends with a flush: everything the block wrote must reach its stream
// before the result. The drain goroutine only reads the pipe while it holds
// readMu, and forwards what it read before letting go, so a flush that holds
// readMu and empties the pipe itself (its read end does not block) has seen
// every byte written before it. This replaced a marker written through the
// pipe and waited for, which cost two goroutine hand-offs (some 60 us) at
// the end of every run.
type stdoutCapture struct {
	w  *os.File
	r  *os.File
	rc syscall.RawConn
	fd int // r's descriptor, non-blocking (r goes through the poller)

	readMu sync.Mutex // held while reading the pipe and forwarding what was read
	buf    []byte

	mu   sync.Mutex
	sink io.Writer // the running exec's stdout; nil between runs (then to stderr)
}

// maxFlushReads bounds a flush: a goroutine the block left writing must not
// keep the run from ending (the pipe holds 64 KiB, so this is far more than
// what was written before the flush).
const maxFlushReads = 64

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

// flushStdout returns once everything written to stdout so far has reached
// the sink.
func (e *Executor) flushStdout() {
	c := e.out
	if c == nil {
		return
	}
	c.readMu.Lock()
	defer c.readMu.Unlock()
	for i := 0; i < maxFlushReads; i++ {
		n, err := readPipe(c.fd, c.buf)
		if n > 0 {
			c.forward(c.buf[:n])
			continue
		}
		if !errors.Is(err, syscall.EINTR) {
			return // empty (EAGAIN), closed, or broken: nothing more to wait for
		}
	}
}

func newStdoutCapture() (*stdoutCapture, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	c := &stdoutCapture{w: w, r: r, fd: -1, buf: make([]byte, 64<<10)}
	// SyscallConn and Control, not Fd: Fd would put the read end in
	// blocking mode, and flush needs reads that return when it is empty.
	if c.rc, err = r.SyscallConn(); err == nil {
		err = c.rc.Control(func(fd uintptr) { c.fd = int(fd) })
	}
	if err == nil {
		err = redirectFD1(w)
	}
	if err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	os.Stdout = w
	go c.drain()
	return c, nil
}

// drain forwards the pipe to the sink as the block writes.
func (c *stdoutCapture) drain() {
	for {
		closed := false
		err := c.rc.Read(func(fd uintptr) bool {
			c.readMu.Lock()
			defer c.readMu.Unlock()
			for {
				n, err := readPipe(int(fd), c.buf)
				switch {
				case n > 0:
					c.forward(c.buf[:n])
					return true
				case errors.Is(err, syscall.EINTR):
					continue
				case errors.Is(err, syscall.EAGAIN):
					return false // wait until the pipe is readable
				default:
					closed = true // EOF or a broken pipe
					return true
				}
			}
		})
		if err != nil || closed {
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
