package native

import (
	"errors"
	"io"
	"os"
	"sync"
	"syscall"
)

// outputCapture sends what compiled blocks write to stdout or stderr to the
// running exec's stream of that name, as the interpreter does. For stdout
// (fmt.Println, os.Stdout, even native code writing fd 1) kernel/child has
// already moved the protocol off fd 1, and fd 1 becomes a pipe that one
// goroutine drains. For stderr only os.Stderr (which the log package
// writes to) becomes such a pipe: fd 2 stays the worker's own, because the
// runtime writes a fatal error there just before the process dies, when
// no goroutine could forward it any more, and the supervisor reads it to
// explain the crash. Before stderr was captured, a compiled block's
// log.Println lines went to the worker's stderr, which nothing shows, so
// they were missing from every run's log.
//
// A run ends with a flush: everything the block wrote must reach its stream
// before the result. The drain goroutine only reads the pipe while it holds
// readMu, and forwards what it read before letting go, so a flush that holds
// readMu and empties the pipe itself (its read end does not block) has seen
// every byte written before it. This replaced a marker written through the
// pipe and waited for, which cost two goroutine hand-offs (some 60 us) at
// the end of every run.
type outputCapture struct {
	w  *os.File
	r  *os.File
	rc syscall.RawConn
	fd int // r's descriptor, non-blocking (r goes through the poller)

	readMu sync.Mutex // held while reading the pipe and forwarding what was read
	buf    []byte

	mu   sync.Mutex
	sink io.Writer // the running exec's stream; nil between runs (then to workerStderr)
}

// workerStderr is the worker's own stderr (fd 2), taken before os.Stderr is
// replaced: what is written between runs, and the worker's own messages
// (a block's os.Exit, the memory limit), go there for the supervisor.
var workerStderr = os.Stderr

// maxFlushReads bounds a flush: a goroutine the block left writing must not
// keep the run from ending (the pipe holds 64 KiB, so this is far more than
// what was written before the flush).
const maxFlushReads = 64

// captureOutput points stdout and stderr at the exec's streams until
// release is called.
func (e *Executor) captureOutput(stdout, stderr io.Writer) (release func()) {
	if e.out == nil {
		c, err := newOutputCapture()
		if err == nil {
			if err = redirectFD1(c.w); err != nil {
				c.close()
			}
		}
		if err != nil {
			return func() {} // stdout then goes where kernel/child sent it (stderr)
		}
		os.Stdout = c.w
		e.out = c
	}
	if e.errOut == nil {
		if c, err := newOutputCapture(); err == nil {
			os.Stderr = c.w
			e.errOut = c
		} // else stderr stays the worker's own
	}
	e.out.setSink(stdout)
	e.errOut.setSink(stderr)
	return func() {
		e.out.setSink(nil)
		e.errOut.setSink(nil)
	}
}

// setSink sends what is written from now on to w (nil: to workerStderr).
// A nil capture (none could be made) ignores it.
func (c *outputCapture) setSink(w io.Writer) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.sink = w
	c.mu.Unlock()
}

// flushOutput returns once everything written to stdout and stderr so far
// has reached its sink.
func (e *Executor) flushOutput() {
	e.out.flush()
	e.errOut.flush()
}

// flush returns once everything written to the pipe so far has reached
// the sink; a nil capture has nothing to flush.
func (c *outputCapture) flush() {
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

func newOutputCapture() (*outputCapture, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	c := &outputCapture{w: w, r: r, fd: -1, buf: make([]byte, 64<<10)}
	// SyscallConn and Control, not Fd: Fd would put the read end in
	// blocking mode, and flush needs reads that return when it is empty.
	if c.rc, err = r.SyscallConn(); err == nil {
		err = c.rc.Control(func(fd uintptr) { c.fd = int(fd) })
	}
	if err != nil {
		c.close()
		return nil, err
	}
	go c.drain()
	return c, nil
}

func (c *outputCapture) close() {
	c.r.Close()
	c.w.Close()
}

// drain forwards the pipe to the sink as the block writes.
func (c *outputCapture) drain() {
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

func (c *outputCapture) forward(p []byte) {
	if len(p) == 0 {
		return
	}
	c.mu.Lock()
	sink := c.sink
	c.mu.Unlock()
	if sink == nil {
		_, _ = workerStderr.Write(p)
		return
	}
	_, _ = sink.Write(p)
}
