package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/redact"
	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/tracing"
	"github.com/stratahq/strata/projects/warehouse"
)

// BlockOutcome is how one block (or one dynamic child) of a run ended.
type BlockOutcome struct {
	Block      string        `json:"block"`
	Child      string        `json:"child,omitempty"`
	Partition  string        `json:"partition"`
	State      State         `json:"state"`
	Attempts   int           `json:"attempts,omitempty"`
	Rows       int           `json:"rows"`
	Duration   time.Duration `json:"-"`
	DurationMS float64       `json:"duration_ms"`
	Error      string        `json:"error,omitempty"`
	ErrorLine  int           `json:"error_line,omitempty"`
	// ErrorFile and ErrorColumn complete ErrorLine's position: the file of
	// the block's package it is in (relative to the project) and the column.
	ErrorFile   string `json:"error_file,omitempty"`
	ErrorColumn int    `json:"error_column,omitempty"`
	ErrorKind   string `json:"error_kind,omitempty"`
	Log         string `json:"log,omitempty"`
	Worker      string `json:"worker,omitempty"`
	// Engine is how the worker ran it, when it said (a worker that cannot
	// run the shipped compiled build runs the block interpreted).
	Engine string `json:"engine,omitempty"`
}

// maxLog bounds the log text kept per block run in the state store.
const maxLog = 64 << 10

// execute runs a block (or one child of it) with the block's retry policy.
func (r *runner) execute(ctx context.Context, g *group, b *project.Block, item *sdk.Item, local func(string) *sdk.Table) (*BlockOutcome, *sdk.Table) {
	child := ""
	if item != nil {
		child = item.Key
	}
	o := &BlockOutcome{Block: b.ID, Child: child, Partition: g.part.Key}
	inputs, err := r.inputs(ctx, g, b, local)
	if err != nil {
		o.State, o.Error = StateFailed, err.Error()
		r.emitBlock(Event{Partition: g.part.Key, Block: b.ID, Child: child, State: StateFailed, Error: o.Error})
		return o, nil
	}
	attempts := 1 + b.Retries.Attempts
	backoff := b.Retries.Backoff
	start := time.Now()
	var out *sdk.Table
	for attempt := 1; attempt <= attempts; attempt++ {
		o.Attempts = attempt
		// The run's running event is durable already (the intent); the
		// block's rides along with the next commit.
		r.emitBlock(Event{Partition: g.part.Key, Block: b.ID, Child: child, State: StateRunning, Attempt: attempt})
		var rerr *protocol.RunError
		var log string
		out, rerr, log, o.Worker, o.Engine = r.attempt(ctx, g, b, item, inputs)
		out, rerr, log = maskAttempt(r.e.secrets, out, rerr, log)
		o.Log = log
		if rerr == nil {
			o.State = StateSucceeded
			break
		}
		o.State, o.Error, o.ErrorLine, o.ErrorKind = StateFailed, rerr.Message, rerr.Line, string(rerr.Kind)
		o.ErrorFile, o.ErrorColumn = "", 0
		if rerr.Line > 0 {
			o.ErrorFile, o.ErrorColumn = rerr.File, rerr.Column
			if o.ErrorFile == "" {
				o.ErrorFile = b.File
			}
		}
		if ctx.Err() != nil {
			o.State = StateCancelled
			break
		}
		if attempt == attempts || !retryable(rerr.Kind) {
			break
		}
		r.emitBlock(Event{Partition: g.part.Key, Block: b.ID, Child: child, State: StateFailed, Attempt: attempt, Error: rerr.Message, ErrorLine: rerr.Line, Log: log, Worker: o.Worker, Engine: o.Engine})
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
		}
		backoff *= 2
		if b.Retries.MaxBackoff > 0 && backoff > b.Retries.MaxBackoff {
			backoff = b.Retries.MaxBackoff
		}
	}
	o.Duration = time.Since(start)
	o.DurationMS = ms(o.Duration)
	if out != nil {
		o.Rows = out.Len()
	} else if f := r.writtenOf(b.ID); f != nil && item == nil && o.State == StateSucceeded {
		o.Rows = int(f.Rows)
	}
	final := Event{Partition: g.part.Key, Block: b.ID, Child: child, State: o.State, Attempt: o.Attempts, Rows: int64(o.Rows),
		DurationMS: ms(o.Duration), Error: o.Error, ErrorLine: o.ErrorLine, Log: o.Log, Worker: o.Worker, Engine: o.Engine}
	if item != nil && o.State == StateSucceeded && out != nil {
		final.Output, _ = protocol.AppendTable(nil, out) // a child that succeeded is never run again by this run
	}
	r.emitBlock(final)
	if o.State != StateSucceeded {
		return o, nil
	}
	return o, out
}

// retryable: a compile error or a failed Check will fail the same way again.
func retryable(k protocol.ErrorKind) bool {
	switch k {
	case protocol.ErrCompile, protocol.ErrUnsupported, protocol.ErrRefused, protocol.ErrCheck, protocol.ErrOutput, protocol.ErrInterrupted:
		return false
	}
	return true
}

// attempt runs the block once; worker names where, when it ran on one, and
// engine how, when the worker said.
func (r *runner) attempt(ctx context.Context, g *group, b *project.Block, item *sdk.Item, in *upstreams) (out *sdk.Table, rerr *protocol.RunError, log, worker, engine string) {
	src := r.srcs[b.ID].text
	h := &blockHandler{r: r, b: b, part: g.part.Key, spec: g.spec, cell: g.part, item: item, interval: string(g.spec.Interval), inputs: in.tables, streams: r.e.secrets.Stream()}
	if b.Kind == project.KindSQL {
		if r.sqlOnWorker(b, in) {
			return r.attemptSQLOnWorker(ctx, g, b, src, in, h)
		}
		var err error
		if in, err = in.withTables(ctx, r.e.wh); err != nil {
			return nil, &protocol.RunError{Kind: protocol.ErrRuntime, File: b.File, Message: err.Error()}, "", "", ""
		}
		op := "sql"
		if tracing.On() { // no string built for a span that is not recorded
			op += " " + b.ID
		}
		sctx, span := tracing.Start(ctx, op, attribute.String("strata.block", b.ID), attribute.String("strata.partition", g.part.Key))
		t, err := r.runSQL(sctx, g, b, src, in)
		tracing.End(span, err, r.e.secrets.Mask)
		if err != nil {
			return nil, &protocol.RunError{Kind: protocol.ErrRuntime, File: b.File, Message: err.Error()}, "", "", ""
		}
		return t, nil, "", "", ""
	}
	req := &protocol.ExecRequest{
		Filename:  b.File,
		Source:    src,
		Files:     r.srcs[b.ID].others,
		Entry:     b.Entry,
		Partition: wirePartition(g.spec, g.part),
		Item:      item,
		Vars:      r.pl.Variables,
		Inputs:    in.names,
		Timeout:   b.Timeout,
		Allow:     r.pin.proj.Kernel.Allow,
		Task:      taskLabel(r.opt.RunID, b.ID, item),
		Snapshot:  r.pin.hash,
	}
	skip, err := r.prepareState(ctx, g, b, item, req)
	if err != nil {
		return nil, &protocol.RunError{Kind: protocol.ErrRuntime, File: b.File, Message: err.Error()}, "", "", ""
	}
	if skip != "" {
		return nil, nil, skip, "", ""
	}
	op := "kernel"
	if tracing.On() { // no string built for a span that is not recorded
		op += " " + b.ID
	}
	if item == nil {
		req.Sink = r.sinkFor(g, b)
	}
	kctx, span := tracing.Start(ctx, op, attribute.String("strata.block", b.ID), attribute.String("strata.partition", g.part.Key))
	req.InputFiles = in.inputFiles()
	r.withDataS3(req)
	res, out, err := r.exec.Exec(kctx, req, in.tables, h)
	if err == nil && res.Error != nil && res.Error.Kind == protocol.ErrNotHere {
		// The executor could not read an upstream's file (its machine has
		// not the data folder): read here, send the tables. The block had
		// not started, so this is the same attempt.
		h.keep(res.Error.Message + ": the coordinator sent the upstream tables instead\n")
		var tin *upstreams
		if tin, err = in.withTables(kctx, r.e.wh); err == nil {
			req.InputFiles = nil
			r.withDataS3(req)
			res, out, err = r.exec.Exec(kctx, req, tin.tables, h)
		}
	}
	h.flush() // the block ended: what was held in case a secret went on is shown
	if err == nil && res.Error != nil {
		span.SetStatus(codes.Error, string(res.Error.Kind))
	}
	tracing.End(span, err, r.e.secrets.Mask)
	if err != nil {
		return nil, &protocol.RunError{Kind: protocol.ErrCrash, Message: "no kernel: " + err.Error()}, h.text(), "", ""
	}
	if res.Error != nil {
		if res.Error.File == "" || res.Error.File == b.File || strings.HasSuffix(b.File, "/"+res.Error.File) {
			res.Error.File = b.File
		}
		return nil, res.Error, h.text(), res.Worker, res.Engine
	}
	if res.ExportSkipped {
		h.keep(fmt.Sprintf("export %s completed already (export ledger): not run again\n", req.Export))
	}
	if rerr := r.keepState(g, b, item, req, res); rerr != nil {
		return nil, rerr, h.text(), res.Worker, res.Engine
	}
	if res.Written != nil && req.Sink != nil {
		// The worker wrote the rows into the warehouse's data folder: the
		// publish registers its file (output_sink.go). The table comes too
		// when a block of this partition reads it here.
		r.keepWritten(b.ID, res.Written)
		if out == nil {
			return nil, nil, h.text(), res.Worker, res.Engine
		}
	}
	if out == nil && b.Entry != "Export" {
		out = sdk.NewTable()
	}
	return out, nil, h.text(), res.Worker, res.Engine
}

// taskLabel names a block execution for executors that ship it elsewhere.
func taskLabel(runID, block string, item *sdk.Item) string {
	s := runID + "/" + block
	if item != nil {
		s += "/" + item.Key
	}
	return s
}

// blockInput drops the warehouse's own _partition column from a read: it is
// bookkeeping, not the upstream's output, and a Transform or SQL block that
// saw it would see a column its upstream never returned.
func blockInput(t *sdk.Table, err error) (*sdk.Table, error) {
	if err != nil || t == nil || t.Column(warehouse.PartitionColumn) == nil {
		return t, err
	}
	out := &sdk.Table{}
	for _, c := range t.Columns() {
		if c.Name != warehouse.PartitionColumn {
			out.AddColumn(c)
		}
	}
	return out, out.Err()
}

// readVersionsOf reads specific versions of several partitions and unions them.
func (r *runner) readVersionsOf(ctx context.Context, product string, want []string, have map[string]int) (*sdk.Table, error) {
	var parts []*sdk.Table
	for _, k := range want {
		v, ok := have[k]
		if !ok {
			continue
		}
		t, err := r.e.wh.Read(ctx, product, warehouse.Selection{Partitions: []string{k}, Version: v}, -1)
		if err != nil {
			return nil, err
		}
		parts = append(parts, t)
	}
	r.mu.Lock()
	r.readVersions[product] = have
	r.mu.Unlock()
	return unionTables(parts)
}

// blockHandler receives a Go block's stream and answers its host calls.
type blockHandler struct {
	r    *runner
	b    *project.Block
	part string
	// spec and cell are the reader's partitioning and partition, for reads
	// of products partitioned by other dimensions (cell_read.go).
	spec partitions.Spec
	cell partitions.Partition
	item *sdk.Item
	// interval and inputs serve ctx.ExportParquet (block_state.go).
	interval string
	inputs   []*sdk.Table

	// streams masks printed output across writes: a secret printed in two
	// pieces is masked as a whole (kernel/redact).
	streams *redact.Stream

	mu      sync.Mutex
	log     strings.Builder
	dropped int64 // bytes past maxLog
}

func (h *blockHandler) notice(kind, text string) {
	ev := h.r.event(Event{Partition: h.part, Block: h.b.ID})
	if h.item != nil {
		ev.Child = h.item.Key
	}
	h.r.e.hub.Publish(Notice{Kind: kind, Event: &ev, Text: text})
}

// keep adds s to the block's log, up to exactly maxLog bytes (whole
// chunks overshot it by as much as the engine's chunking, so the two
// engines kept different lengths); text says how much more there was.
func (h *blockHandler) keep(s string) {
	h.mu.Lock()
	n := min(max(maxLog-h.log.Len(), 0), len(s))
	if h.dropped > 0 {
		n = 0 // once cut, the log keeps no later piece: no gap inside it
	}
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n-- // whole characters only: the store keeps text
	}
	h.log.WriteString(s[:n])
	h.dropped += int64(len(s) - n)
	h.mu.Unlock()
}

func (h *blockHandler) Stream(name, data string) {
	if data = h.streams.Write(name, data); data != "" {
		h.keep(data)
		h.notice("stdout", data)
	}
}

// flush shows what the block printed last, held back in case it was the
// start of a secret that a later write completed.
func (h *blockHandler) flush() {
	for _, p := range h.streams.Flush() {
		h.keep(p.Data)
		h.notice("stdout", p.Data)
	}
}

// LogTimeLayout starts each ctx.Log line of a block run's log.
const LogTimeLayout = "2006-01-02T15:04:05.000Z07:00"

func (h *blockHandler) Log(l protocol.LogLine) {
	// An instant with its zone (UTC, "Z"): the kernel's own zone is unknown
	// to whoever reads the log, and the UI shows it in the display zone.
	line := h.r.e.secrets.Mask(fmt.Sprintf("%s %s %s\n", l.Time.UTC().Format(LogTimeLayout), l.Level, l.Msg))
	h.keep(line)
	h.notice("log", line)
}

func (h *blockHandler) HostCall(ctx context.Context, c *protocol.HostCall) (*sdk.Table, error) {
	if c.Method == protocol.MethodExportParquet {
		return h.exportParquet(ctx, c.Dir)
	}
	if c.Method == protocol.MethodExportBegin || c.Method == protocol.MethodExportDone {
		if h.r.replay != nil {
			return nil, fmt.Errorf("a replay writes nothing: an export does not run in it")
		}
	}
	if c.Method == "product" {
		// A replay publishes nothing and reads what the stored run read
		// (replay_pins.go), never what is current.
		if h.r.replay != nil {
			return h.r.replay.productRead(ctx, h.b, c)
		}
		if keys, mapped, err := h.r.e.mappedRead(ctx, h.spec, c.Product, c.Window); mapped || err != nil {
			return h.readMapped(ctx, c.Product, keys, err)
		}
		if err := h.r.e.ensureFresh(ctx, h.r.pl, c.Product, c.Window, h.r.opt.PreferPinned); err != nil {
			return nil, err
		}
		t, read, err := h.r.e.readProduct(ctx, c, h.r.opt.PreferPinned)
		if err == nil {
			h.r.recordProductRead(h.b.ID, h.part, read)
		}
		return t, err
	}
	return h.r.e.HostCall(ctx, c)
}

func (h *blockHandler) text() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.dropped > 0 {
		return h.log.String() + protocol.TruncatedNote(maxLog, h.dropped)
	}
	return h.log.String()
}
