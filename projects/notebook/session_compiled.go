package notebook

import (
	"context"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/interp"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/projects/project"
)

// runCompiled runs a cell's Go text on a compiled worker, for what the
// interpreter cannot run (range over a function, generic code it mis-infers,
// …). ok is false when no toolchain is there to build it; the interpreter's
// refusal then stands. The worker is built from this text alone and cached
// by its hash, so re-running an unchanged cell starts no build.
func (s *Session) runCompiled(ctx context.Context, b *project.Block, req *protocol.ExecRequest, inputs []*sdk.Table, h *streamHandler) (*protocol.Result, *sdk.Table, bool) {
	c := s.m.cfg.Engine.Compiler()
	if c == nil || c.Available() != nil {
		return nil, nil, false
	}
	ex, release, err := c.Executor(ctx, []build.Block{{File: req.Filename, Source: req.Source, Entry: b.Entry}}, req.Allow)
	if err != nil {
		return &protocol.Result{Error: &protocol.RunError{Kind: protocol.ErrCompile, File: req.Filename, Message: "build compiled worker: " + err.Error()}}, nil, true
	}
	defer release()
	res, out, err := ex.Exec(ctx, req, inputs, h)
	if err != nil {
		return &protocol.Result{Error: &protocol.RunError{Kind: protocol.ErrCrash, File: req.Filename, Message: "no compiled kernel: " + err.Error()}}, nil, true
	}
	return res, out, true
}

// OfferCompiled is a failure's Offer when running the cell compiled (Exec
// with Engine EngineCompiled) may succeed where the interpreter did not.
const OfferCompiled = "compiled"

// offerCompiled says whether a failed interpreted run is offered a compiled
// run, and words the error so: a fault of the interpreter once the block had
// started (never replayed by itself, as its side effects happened), or a
// timeout, as CPU-bound Go runs many times faster compiled. Nothing is
// offered without a toolchain to build it.
func (s *Session) offerCompiled(re *protocol.RunError) string {
	faulted := re.Kind == protocol.ErrUnsupported && re.Started
	if !faulted && re.Kind != protocol.ErrTimeout {
		return ""
	}
	c := s.m.cfg.Engine.Compiler()
	if c == nil || c.Available() != nil {
		return ""
	}
	if faulted {
		re.Message = "this valid Go needs compiled: " + strings.Replace(strings.TrimPrefix(re.Message, interp.NeedsCompiledPrefix), "failed running this valid Go", "failed running it", 1) +
			"; it was not run again by itself, as what ran before the fault had its effects: run it compiled"
	} else {
		re.Message += "; the interpreter runs CPU-bound Go many times slower than compiled Go (often 50x or more), so compiled would take a fraction of this: run it compiled"
	}
	for i := range re.Diagnostics {
		re.Diagnostics[i].Message = re.Message
	}
	return OfferCompiled
}

// unsupportedReason is the short name of what the interpreter refused:
// "needs compiled: range over a function (an iterator, Go 1.23): the
// kernel's interpreter …" gives "range over a function (an iterator, Go 1.23)".
func unsupportedReason(e *protocol.RunError) string {
	msg := e.Message
	if len(e.Diagnostics) > 0 {
		msg = e.Diagnostics[0].Message
	}
	msg = strings.TrimPrefix(msg, interp.NeedsCompiledPrefix)
	for _, cut := range []string{": the kernel's interpreter", " is not in the kernel's interpreter", " is not supported"} {
		if i := strings.Index(msg, cut); i > 0 {
			msg = msg[:i]
		}
	}
	msg = strings.TrimPrefix(msg, "needs compiled: ") // interp.NeedsCompiledPrefix, which every such diagnostic starts with
	msg = strings.TrimPrefix(msg, "the builtin ")
	if len(msg) > 80 {
		msg = msg[:77] + "…"
	}
	return msg
}
