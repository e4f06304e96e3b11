package supervisor

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"sync"
	"syscall"

	"github.com/stratahq/strata/kernel/native"
)

// kernelStderr reads what a kernel process writes to its fd 2. It keeps the
// tail, which explains a crash, and while a compiled block runs it also
// sends it to the run's stderr stream. A compiled worker keeps fd 2 its own
// (kernel/native: the runtime writes a fatal error there as the process
// dies, when nothing inside it could forward it any more), so what Go
// itself writes there never reached a run: a compiled block's println and
// print, which the interpreter sends to the run's stderr as `go run` shows
// them, were missing from every compiled run's log (println("debug:", x)
// in a backfill printed nothing anywhere).
//
// The result must not overtake what the block wrote before it: the worker
// writes fd 2 before it writes the result frame, so when the result
// arrives those bytes are in the pipe or already read. drain reads only
// while it holds readMu and forwards what it read before letting go, so a
// flush that holds readMu and empties the pipe itself (its reads do not
// block) has sent every byte written before the result.
type kernelStderr struct {
	r    *os.File
	rc   syscall.RawConn
	tail *tailBuffer

	readMu sync.Mutex // held while reading the pipe and forwarding what was read
	buf    []byte
	// partial is a line begun and not ended: the runtime's println writes
	// each argument on its own, and a line must reach the stream whole, not
	// cut by what the block wrote to os.Stderr meanwhile ("via println via
	// log\n…42\n").
	partial []byte

	mu   sync.Mutex
	sink func(string) // the running compiled block's stderr stream, or nil
}

// newKernelStderr makes the pipe for a kernel's stderr: w is the child's
// fd 2 (the caller closes it once the child has started).
func newKernelStderr(tail *tailBuffer) (s *kernelStderr, w *os.File, err error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	s = &kernelStderr{r: r, tail: tail, buf: make([]byte, 32<<10)}
	// SyscallConn, not Fd: Fd would put the read end in blocking mode,
	// and flush needs reads that return when the pipe is empty.
	if s.rc, err = r.SyscallConn(); err != nil {
		r.Close()
		w.Close()
		return nil, nil, err
	}
	return s, w, nil
}

// setSink sends what is written from now on to f as well (nil: only to
// the tail). A line begun before is not f's.
func (s *kernelStderr) setSink(f func(string)) {
	s.readMu.Lock()
	defer s.readMu.Unlock()
	s.partial = s.partial[:0]
	s.mu.Lock()
	s.sink = f
	s.mu.Unlock()
}

// drain reads the pipe until the kernel and everything it started have
// closed it, or close is called.
func (s *kernelStderr) drain() {
	for {
		done := false
		err := s.rc.Read(func(fd uintptr) bool {
			s.readMu.Lock()
			defer s.readMu.Unlock()
			n, eof, again := s.readOnce(int(fd))
			if n > 0 {
				return true
			}
			done = eof
			return !again
		})
		if err != nil || done {
			return
		}
	}
}

// flush returns once everything written to the pipe so far has reached
// the tail and the sink.
func (s *kernelStderr) flush() {
	s.readMu.Lock()
	defer s.readMu.Unlock()
	_ = s.rc.Control(func(fd uintptr) {
		for i := 0; i < 64; i++ { // bounded: a writer that never stops must not hold a run
			if n, _, _ := s.readOnce(int(fd)); n == 0 {
				return
			}
		}
	})
	if len(s.partial) > 0 { // the block's last words, newline or not
		s.send(string(s.partial))
		s.partial = s.partial[:0]
	}
}

// readOnce reads what the pipe holds and forwards it (readMu held). again
// is true when it was empty, eof when every writer has closed it.
func (s *kernelStderr) readOnce(fd int) (n int, eof, again bool) {
	for {
		n, err := syscall.Read(fd, s.buf)
		switch {
		case n > 0:
			s.forward(s.buf[:n])
			return n, false, false
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EAGAIN):
			return 0, false, true
		default:
			return 0, true, false
		}
	}
}

// forward keeps p in the tail and sends its whole lines on (readMu held).
func (s *kernelStderr) forward(p []byte) {
	_, _ = s.tail.Write(p)
	s.partial = append(s.partial, p...)
	if i := bytes.LastIndexByte(s.partial, '\n'); i >= 0 {
		s.send(string(s.partial[:i+1]))
		s.partial = append(s.partial[:0], s.partial[i+1:]...)
	}
}

func (s *kernelStderr) send(text string) {
	s.mu.Lock()
	sink := s.sink
	s.mu.Unlock()
	if sink != nil {
		if text = withoutKernelLines(text); text != "" {
			sink(text)
		}
	}
}

func (s *kernelStderr) close() { _ = s.r.Close() }

// withoutKernelLines drops the lines the kernel itself writes for the
// supervisor (where a block called os.Exit, the memory limit): they are
// reported as the run's error, in words, not as the block's output.
func withoutKernelLines(s string) string {
	if !strings.Contains(s, "strata") {
		return s
	}
	var b strings.Builder
	for line := range strings.SplitAfterSeq(s, "\n") {
		if !strings.HasPrefix(line, native.ExitMarker) && !strings.HasPrefix(line, "strata kernel: ") {
			b.WriteString(line)
		}
	}
	return b.String()
}
