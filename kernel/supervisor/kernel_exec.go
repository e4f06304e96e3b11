package supervisor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/child"
	"github.com/stratahq/strata/kernel/native"
	"github.com/stratahq/strata/kernel/protocol"
)

// Exec runs one block on the kernel and returns its result; a failed run is
// a Result with Error set, never a Go error. Time, interrupt and memory
// limits are enforced here, from outside the kernel: when the kernel does not
// stop in time it is killed, and the kernel is then unusable (Alive false).
func (k *Kernel) Exec(ctx context.Context, req *protocol.ExecRequest, inputs []*sdk.Table, h Handler) (*protocol.Result, *sdk.Table) {
	k.execMu.Lock()
	defer k.execMu.Unlock()
	if !k.Alive() {
		return failed(protocol.ErrCrash, "kernel is not running: "+k.describeExit()), nil
	}
	rec := &recordingHandler{Handler: h}
	if k.ready != nil && k.ready.Executor == native.ExecutorName {
		// A compiled block's println goes to the worker's fd 2. (The
		// interpreter sends all a block writes through the protocol; its
		// fd 2 has only the interpreter's own traces.)
		k.errFD2.setSink(func(s string) { rec.forward("stderr", s) })
		defer k.errFD2.setSink(nil)
	}
	c := &pending{id: "x" + strconv.FormatInt(k.seq.Add(1), 10), handler: rec, done: make(chan *protocol.Message, 1), inputs: inputs}
	k.stderr.Reset()
	k.mu.Lock()
	k.call = c
	k.mu.Unlock()
	defer func() {
		k.mu.Lock()
		k.call = nil
		k.mu.Unlock()
	}()
	start := time.Now()
	// Refs: the result may send back unchanged input columns as references
	// to inputs instead of their values (callInputs resolves them).
	if err := k.w.Write(&protocol.Message{Type: protocol.TypeExec, ID: c.id, Exec: req, Refs: true}, inputs...); err != nil {
		k.markBroken()
		return failed(protocol.ErrCrash, "send to kernel: "+err.Error()), nil
	}

	var hard <-chan time.Time
	if req.Timeout > 0 {
		t := time.NewTimer(req.Timeout + k.cfg.Grace)
		defer t.Stop()
		hard = t.C
	}
	rss := time.NewTicker(100 * time.Millisecond)
	defer rss.Stop()
	interrupted := ctx.Done()
	var grace <-chan time.Time

	for {
		select {
		case m := <-c.done:
			res := m.Result
			if res == nil {
				res = &protocol.Result{Error: &protocol.RunError{Kind: protocol.ErrCrash, Message: "kernel sent a result without a body"}}
			}
			if res.Restart {
				k.markBroken()
			}
			return res, c.table
		case <-k.dead:
			return k.crashResult(rec, start, req), nil
		case <-hard:
			k.kill()
			return &protocol.Result{Duration: time.Since(start), Error: &protocol.RunError{Kind: protocol.ErrTimeout,
				Message: "timed out after " + req.Timeout.String() + " (the block did not stop; its kernel was restarted)"}}, nil
		case <-interrupted:
			interrupted = nil
			_ = k.w.Write(&protocol.Message{Type: protocol.TypeInterrupt, ID: c.id})
			grace = time.After(k.cfg.Grace)
		case <-grace:
			k.kill()
			return &protocol.Result{Duration: time.Since(start), Error: &protocol.RunError{Kind: protocol.ErrInterrupted,
				Message: "interrupted (the block did not stop within " + k.cfg.Grace.String() + "; its kernel was restarted)"}}, nil
		case <-rss.C:
			if used := rssBytes(k.pid); used > k.cfg.MemoryLimit+k.cfg.MemoryLimit/4 {
				k.kill()
				return &protocol.Result{Duration: time.Since(start), Error: &protocol.RunError{Kind: protocol.ErrMemory,
					Message: fmt.Sprintf("exceeded memory limit of %s (%s resident)", mib(k.cfg.MemoryLimit), mib(used))}}, nil
			}
		}
	}
}

func (k *Kernel) kill() {
	k.markBroken()
	k.Kill()
	select {
	case <-k.dead:
	case <-time.After(5 * time.Second):
	}
}

func (k *Kernel) markBroken() {
	k.mu.Lock()
	k.broken = true
	k.mu.Unlock()
}

var (
	goPanicLine = regexp.MustCompile(`(?m)^panic: (.*?)(?: \[recovered.*\])?$`)
	yaegiPos    = regexp.MustCompile(`(?m)^(?:[^:\s]*:)?(\d+):(\d+): panic`)
	memoryLine  = regexp.MustCompile(`exceeded memory limit of .*`)
	exitAt      = regexp.MustCompile(`(?m)^strata: block called os\.Exit\(-?\d+\) at (.*):(\d+)$`)
)

// crashResult explains a kernel that died during a run: out of memory (its
// own watchdog), a panic the kernel could not contain (the interpreter's
// trace places it by its own positions; a compiled worker's Go trace names
// the block file, thanks to its //line directives), or a block that ended
// the process itself (os.Exit, log.Fatal).
func (k *Kernel) crashResult(rec *recordingHandler, start time.Time, req *protocol.ExecRequest) *protocol.Result {
	file, src := req.Filename, req.Source
	<-k.dead
	k.mu.Lock()
	err, readErr := k.exitErr, k.readErr
	k.mu.Unlock()
	res := &protocol.Result{Duration: time.Since(start), Stdout: rec.stdout()}
	if readErr != nil {
		res.Error = &protocol.RunError{Kind: protocol.ErrCrash, Message: "kernel's messages could not be read: " + readErr.Error() + " (the kernel was stopped)"}
		return res
	}
	var ee *exec.ExitError
	tail := k.stderr.String()
	if errors.As(err, &ee) && ee.ExitCode() == child.ExitMemory && memoryLine.MatchString(tail) {
		msg := "exceeded memory limit of " + mib(k.cfg.MemoryLimit)
		if m := memoryLine.FindString(k.stderr.String()); m != "" {
			msg = m
		}
		res.Error = &protocol.RunError{Kind: protocol.ErrMemory, Message: msg}
		return res
	}
	re := &protocol.RunError{Kind: protocol.ErrCrash, Message: "kernel crashed: " + strings.TrimSpace(firstLines(tail, 3))}
	if m := goPanicLine.FindStringSubmatch(tail); m != nil {
		re.Kind, re.File = protocol.ErrPanic, file
		re.Message = "panic in a goroutine: " + m[1]
		if p := yaegiPos.FindStringSubmatch(rec.stderr()); p != nil {
			re.Line, _ = strconv.Atoi(p[1])
			re.Column, _ = strconv.Atoi(p[2])
			if fl, fc, ok := enclosingFunc(src, re.Line); ok {
				re.Line, re.Column = fl, fc
				re.Message += fmt.Sprintf(" (somewhere in the function at line %d: the interpreter cannot tell which line; a compiled run names it)", fl)
			} else {
				re.Message += " (near line " + p[1] + ")"
			}
		} else if line := goTraceLine(tail, file); line > 0 {
			re.Line = line
		}
	} else if code := exitCode(err); code >= 0 {
		// No panic and no signal: the block's own code ended the process.
		re.Kind, re.File = protocol.ErrPanic, file
		re.Message = fmt.Sprintf("block called os.Exit(%d) (or log.Fatal): a block cannot end the kernel; return an error instead", code)
		if m := exitAt.FindStringSubmatch(tail); m != nil {
			// A compiled worker says where (kernel/native.Exit): in the
			// entry file or a helper beside it, which was reported under
			// the entry's name with the helper's line.
			re.Line, _ = strconv.Atoi(m[2])
			for _, f := range req.Files {
				if f.Name == m[1] {
					re.File = m[1]
				}
			}
		}
	}
	res.Error = re
	return res
}

// exitCode is the status of a process that exited by itself, -1 if a
// signal ended it.
func exitCode(err error) int {
	var ee *exec.ExitError
	if err == nil {
		return 0
	}
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// goTraceLine finds the first frame of file in a Go panic trace ("\tfile:12 +0x1d").
func goTraceLine(trace, file string) int {
	if file == "" {
		return 0
	}
	for _, l := range strings.Split(trace, "\n") {
		l = strings.TrimSpace(l)
		rest, ok := strings.CutPrefix(l, file+":")
		if !ok {
			if i := strings.Index(l, "/"+file+":"); i >= 0 {
				rest, ok = l[i+len(file)+2:], true
			}
		}
		if ok {
			n, _ := strconv.Atoi(strings.Fields(rest + " ")[0])
			if n > 0 {
				return n
			}
		}
	}
	return 0
}

func failed(kind protocol.ErrorKind, msg string) *protocol.Result {
	return &protocol.Result{Error: &protocol.RunError{Kind: kind, Message: msg}}
}

// rssBytes reads the resident set size of pid from /proc (0 where unavailable).
func rssBytes(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

func mib(b int64) string {
	if b >= 1<<30 && b%(1<<30) == 0 {
		return strconv.FormatInt(b>>30, 10) + " GiB"
	}
	return strconv.FormatInt(b>>20, 10) + " MiB"
}

// recordingHandler keeps what the run streamed, to explain a crash.
type recordingHandler struct {
	Handler
	mu     sync.Mutex
	out    strings.Builder
	errOut strings.Builder
	fwdMu  sync.Mutex // one handler call at a time
}

func (r *recordingHandler) Stream(name, data string) {
	r.mu.Lock()
	if name == "trace" || name == "stderr" {
		if r.errOut.Len() < 64<<10 {
			r.errOut.WriteString(data)
		}
	} else if r.out.Len() < protocol.MaxCapturedOutput {
		r.out.WriteString(data)
	}
	r.mu.Unlock()
	if name != "trace" { // trace is kept to place a crash, never shown
		r.forward(name, data)
	}
}

// forward passes a stream's data on without keeping it. Streams come from
// two goroutines (the protocol's reader, the kernel's stderr): fwdMu keeps
// the handler's calls one at a time, as they were when only one did.
func (r *recordingHandler) forward(name, data string) {
	if r.Handler != nil {
		r.fwdMu.Lock()
		r.Handler.Stream(name, data)
		r.fwdMu.Unlock()
	}
}

func (r *recordingHandler) Log(l protocol.LogLine) {
	if r.Handler != nil {
		r.fwdMu.Lock()
		r.Handler.Log(l)
		r.fwdMu.Unlock()
	}
}

func (r *recordingHandler) HostCall(ctx context.Context, c *protocol.HostCall) (*sdk.Table, error) {
	if r.Handler == nil {
		return nil, sdk.ErrNoWarehouse
	}
	return r.Handler.HostCall(ctx, c)
}

func (r *recordingHandler) stdout() string { r.mu.Lock(); defer r.mu.Unlock(); return r.out.String() }
func (r *recordingHandler) stderr() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.errOut.String()
}
