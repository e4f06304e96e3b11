package notebook

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/blocks/tableio"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
)

// run executes a cell's text: a Go block on the session's kernel, a SQL
// block in the warehouse, its upstreams read from the session's drafts
// where it holds them. A success becomes the cell's draft for its
// partition. It returns the final event and whether the kernel had to be
// replaced.
func (s *Session) run(ctx context.Context, e *execution, source string) (Event, bool) {
	eng := s.m.cfg.Engine
	start := time.Now()
	pl, err := eng.Pipeline(e.pipeline)
	if err != nil {
		var probs project.Problems
		if errors.As(err, &probs) {
			err = fmt.Errorf("pipeline %s has problems; fix them first: %s", e.pipeline, probs.Error())
		}
		return refused(e.id, CodeInvalid, err.Error()), false
	}
	b := pl.Block(e.block)
	if b == nil {
		return refused(e.id, CodeInvalid, fmt.Sprintf("pipeline %s has no block %q", pl.ID, e.block)), false
	}
	in, err := eng.PrepareInteractiveIn(ctx, e.env, pl.ID, b.ID, e.partition, e.item, s.drafts.lookup(pl.ID, e.env))
	if err != nil {
		if ctx.Err() != nil {
			return stopped(e, b.File, err, time.Since(start)), false
		}
		return refused(e.id, CodeInvalid, err.Error()), false
	}
	masks := eng.Secrets()
	if b.Kind == project.KindSQL {
		t, err := in.ExecSQL(ctx)(source)
		if err != nil {
			if ctx.Err() != nil {
				return stopped(e, b.File, err, time.Since(start)), false
			}
			line, col := sqlErrorPosition(err.Error(), source) // numbers only: nothing to mask
			return runFailed(e.id, &protocol.RunError{Kind: protocol.ErrRuntime, File: b.File, Line: line, Column: col, Message: masks.Mask(err.Error())}, time.Since(start)), false
		}
		return s.succeeded(e, pl, in, source, engine.MaskTable(masks, t), time.Since(start), "sql", ""), false
	}
	req, err := in.ExecRequest(source)
	if err != nil {
		return refused(e.id, CodeInvalid, err.Error()), false
	}
	h := &streamHandler{s: s, id: e.id, host: in.HostCall, streams: masks.Stream()}
	if e.engine == EngineCompiled {
		// The "run compiled" a failure offered: on a compiled worker only.
		res, out, ok := s.runCompiled(ctx, b, req, in.Inputs, h)
		if !ok {
			return refused(e.id, CodeInvalid, "run compiled: no Go toolchain is there to build the cell (install Go, or put it on PATH)"), false
		}
		return s.ended(ctx, e, pl, in, b, source, h, res, out, "compiled: on request", false)
	}
	if rerr := s.useProjectKernel(ctx, h, b.File, req); rerr != nil {
		h.flush()
		if ctx.Err() != nil {
			return stopped(e, b.File, errors.New(rerr.Message), time.Since(start)), false
		}
		return runFailed(e.id, rerr, time.Since(start)), false
	}
	k, err := s.ensureKernel(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return stopped(e, b.File, err, time.Since(start)), false
		}
		return refused(e.id, CodeKernel, "start the session's kernel: "+err.Error()), false
	}
	res, out := k.Exec(ctx, req, in.Inputs, h)
	restarted := false
	if !k.Alive() {
		// The block killed its kernel (memory, a crash, a timeout, an
		// interrupt it ignored): this session alone gets a fresh one.
		restarted = s.replaceKernel(k)
	}
	mode := ""
	if res.Error != nil && res.Error.Kind == protocol.ErrUnsupported && !res.Error.Started {
		// Valid Go the interpreter refused before any of it ran: run it
		// compiled instead. A fault once the block had started is never
		// replayed (its side effects happened): it is reported, with
		// compiled offered.
		if cres, cout, ok := s.runCompiled(ctx, b, req, in.Inputs, h); ok {
			mode = "compiled: " + unsupportedReason(res.Error)
			res, out = cres, cout
		}
	}
	return s.ended(ctx, e, pl, in, b, source, h, res, out, mode, restarted)
}

// ended turns a kernel's result into the execution's final event.
func (s *Session) ended(ctx context.Context, e *execution, pl *project.Pipeline, in *engine.Interactive, b *project.Block, source string, h *streamHandler, res *protocol.Result, out *sdk.Table, mode string, restarted bool) (Event, bool) {
	h.flush() // the cell ended: nothing more can complete a held secret
	masks := s.m.cfg.Engine.Secrets()
	if res.Error != nil {
		re := *res.Error
		re.Message = masks.Mask(re.Message)
		if re.File == "" {
			re.File = b.File
		}
		if ctx.Err() != nil && (re.Kind != protocol.ErrInterrupted || e.byRestart.Load()) {
			return stopped(e, re.File, &re, res.Duration), restarted
		}
		offer := ""
		if mode == "" {
			offer = s.offerCompiled(&re) // words re: before runFailed copies it
		}
		ev := runFailed(e.id, &re, res.Duration)
		ev.Error.Engine, ev.Error.Offer = mode, offer
		return ev, restarted
	}
	stdout := ""
	if h.dropped.Load() > 0 {
		stdout = masks.Mask(res.Stdout) // the stream lost chunks; the captured text is complete
	}
	ev := s.succeeded(e, pl, in, source, engine.MaskTable(masks, out), res.Duration, res.Entry, stdout)
	ev.Result.Engine = mode
	return ev, restarted
}

// succeeded keeps the output as the cell's draft and builds the result.
func (s *Session) succeeded(e *execution, pl *project.Pipeline, in *engine.Interactive, source string, out *sdk.Table, d time.Duration, entry, stdout string) Event {
	if out == nil {
		out = sdk.NewTable()
	}
	meta := draftMeta{code: s.m.textFingerprint(pl, in.Block, source), origins: in.Origins, zone: in.Zone}
	if in.Item != nil {
		meta.item = in.Item.Key
	}
	s.drafts.put(DraftKey{e.pipeline, e.block, in.Key, e.env}, out, time.Now(), meta)
	return Event{Kind: EventResult, ID: e.id, Result: &Result{
		Preview:   tableio.ToJSON(out, PreviewRows, in.Zone),
		Duration:  d,
		Entry:     entry,
		Stdout:    stdout,
		Partition: in.Key,
		Inputs:    in.Origins,
		Item:      meta.item,
	}}
}

// stopped is the error of an execution that interrupt, restart or shutdown
// cancelled, whatever step it had reached (a block that returns ctx.Err()
// itself would otherwise look like its own failure).
func stopped(e *execution, file string, cause error, d time.Duration) Event {
	msg := "interrupted"
	if e.byRestart.Load() {
		msg = "stopped: the session's kernel was restarted"
	}
	if cause != nil {
		msg += " (" + cause.Error() + ")"
	}
	return runFailed(e.id, &protocol.RunError{Kind: protocol.ErrInterrupted, File: file, Message: msg}, d)
}
