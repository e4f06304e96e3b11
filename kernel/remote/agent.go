package remote

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/redact"
	"github.com/stratahq/strata/kernel/supervisor"
)

// Executor is what an agent drives: its machine's kernel pool.
type Executor interface {
	Exec(ctx context.Context, req *protocol.ExecRequest, inputs []*sdk.Table, h supervisor.Handler) (*protocol.Result, *sdk.Table, error)
}

// AgentConfig says who a worker is and how much it takes on.
type AgentConfig struct {
	Slots   int    // tasks at once, one kernel each (default 1)
	ID      string // default host/pid/random
	Version string // reported in heartbeats
	Local   bool   // the coordinator's own kernels
	// HostCallTimeout bounds one ctx.Query / ctx.Product answered by the
	// coordinator (default 10 minutes).
	HostCallTimeout time.Duration
	// Natives and BinDir let the worker run tasks on the compiled build
	// the coordinator ships (kept in BinDir by hash); without them every
	// task runs interpreted.
	Natives Natives
	BinDir  string
	// Files, when set, writes a block's output where the task's Sink says
	// (the warehouse's shared data folder) instead of sending the rows back:
	// the coordinator then only commits the file (output_sink.go).
	Files FileWriter
	// Inputs, when set, reads the upstream files a task names
	// (ExecRequest.InputFiles) from the shared data folder; without it such
	// a task is answered ErrNotHere and the coordinator sends the tables.
	Inputs FileReader
	// SQL, when set, runs SQL blocks' tasks (ExecRequest.SQL) in a DuckDB
	// of this machine; without it they are answered ErrNotHere and run on
	// the coordinator.
	SQL SQLRunner
}

// FileWriter writes a block's output as a file the coordinator commits.
// The task says where (req.Sink) and, for a bucket, how to reach it
// (req.DataS3, the key asked for with secret).
type FileWriter interface {
	WriteOutput(ctx context.Context, req *protocol.ExecRequest, t *sdk.Table, secret SecretFunc) (*protocol.WrittenOutput, error)
}

// Agent is a worker: it pulls tasks, one Fetch(1) per free slot, runs them
// on its kernels and publishes their results.
type Agent struct {
	nc   *nats.Conn
	js   jetstream.JetStream
	n    names
	s    Settings
	cfg  AgentConfig
	exec Executor
	host string
	bins *binaries // nil: interpreted only

	started time.Time
	busy    atomic.Int32
	ran     atomic.Int64

	mu      sync.Mutex
	running map[uint64]context.CancelFunc // by attempt, for cancel broadcasts

	lakeKeys lakeSecrets // lake credentials, kept between tasks (lake_secret_cache.go)
}

// NewAgent returns a worker for the pool named in s.
func NewAgent(nc *nats.Conn, s Settings, cfg AgentConfig, exec Executor) (*Agent, error) {
	s = s.withDefaults()
	n, err := namesFor(s.Pool)
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	if cfg.Slots < 1 {
		cfg.Slots = 1
	}
	if cfg.ID == "" {
		cfg.ID = fmt.Sprintf("%s/%d/%04x", host, os.Getpid(), time.Now().UnixNano()&0xffff)
	}
	if cfg.HostCallTimeout <= 0 {
		cfg.HostCallTimeout = 10 * time.Minute
	}
	a := &Agent{nc: nc, js: js, n: n, s: s, cfg: cfg, exec: exec, host: host, started: time.Now(), running: map[uint64]context.CancelFunc{}}
	if cfg.Natives != nil && cfg.BinDir != "" {
		a.bins = &binaries{dir: cfg.BinDir, fetching: map[string]chan struct{}{}, failed: map[string]error{}}
	}
	return a, nil
}

// ID names the worker in results and heartbeats.
func (a *Agent) ID() string { return a.cfg.ID }

// Ran counts the tasks this agent finished.
func (a *Agent) Ran() int64 { return a.ran.Load() }

// Run works until ctx ends. On the way out it stops fetching, interrupts
// the runs in flight and Naks their tasks so another worker takes them at
// once rather than after the lease.
func (a *Agent) Run(ctx context.Context) error {
	cons, obs, err := bind(ctx, a.js, a.n, a.s)
	if err != nil {
		return err
	}
	ackWait := a.s.AckWait
	if info := cons.CachedInfo(); info != nil && info.Config.AckWait > 0 {
		ackWait = info.Config.AckWait // the coordinator's, which made the consumer
	}
	pay, err := newPayloads(obs, a.s.Artifacts, a.n.pool, a.s.CallTimeout)
	if err != nil {
		return err
	}
	sub, err := a.nc.Subscribe(a.n.cancelSubject, func(m *nats.Msg) {
		attempt, _ := strconv.ParseUint(string(m.Data), 10, 64)
		a.mu.Lock()
		stop := a.running[attempt]
		a.mu.Unlock()
		if stop != nil {
			stop()
		}
	})
	if err != nil {
		return fmt.Errorf("subscribe to cancels: %w", err)
	}
	defer sub.Unsubscribe()

	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); a.heartbeats(ctx) }()
	for i := 0; i < a.cfg.Slots; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); a.slot(ctx, cons, pay, ackWait) }()
	}
	wg.Wait()
	a.beat(true)
	return nil
}

// slot is one kernel's loop: a task is fetched only when the slot is free,
// so tasks never wait on a busy worker while another is idle.
func (a *Agent) slot(ctx context.Context, cons jetstream.Consumer, pay *payloads, ackWait time.Duration) {
	for ctx.Err() == nil {
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(2*time.Second))
		if err != nil {
			select {
			case <-ctx.Done():
			case <-time.After(time.Second): // the server is away; the client reconnects
			}
			continue
		}
		for m := range batch.Messages() {
			a.handle(ctx, m, pay, ackWait)
		}
	}
}

// handle runs one task and publishes its result before acking it: if the
// worker dies between the two, the task is run again and the coordinator
// keeps whichever result came first.
func (a *Agent) handle(ctx context.Context, m jetstream.Msg, pay *payloads, ackWait time.Duration) {
	if ctx.Err() != nil {
		_ = m.Nak()
		return
	}
	a.busy.Add(1)
	defer a.busy.Add(-1)
	body, _, err := pay.unpack(ctx, m.Headers(), m.Data())
	hdr := &taskHeader{}
	var inputs []*sdk.Table
	if err == nil {
		inputs, err = decodeFrame(body, hdr)
	}
	if err != nil || hdr.Exec == nil {
		if err == nil {
			err = errors.New("task without an exec request")
		}
		// A payload the object store could not give may come next time; one
		// that is corrupt fails on every worker and the coordinator hears of
		// it from MaxDeliver, so let it go round rather than guess its attempt.
		fmt.Fprintf(os.Stderr, "strata worker %s: unreadable task (subject %s): %v\n", a.cfg.ID, m.Subject(), err)
		_ = m.NakWithDelay(time.Second)
		return
	}

	runCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	a.mu.Lock()
	a.running[hdr.Attempt] = stop
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(a.running, hdr.Attempt)
		a.mu.Unlock()
	}()
	// Shutdown interrupts the run too, and the task is handed back.
	shutdown := context.AfterFunc(ctx, stop)
	defer shutdown()
	// The coordinator's trace continues here (traceparent in the task's
	// headers): the worker's span is a child of the block's kernel call.
	runCtx, span := startTaskSpan(runCtx, m.Headers(), a.cfg.ID, hdr.Label)
	defer span.End()

	leaseDone := make(chan struct{})
	defer close(leaseDone)
	go func() { // keep the lease until the result is recorded and acked
		t := time.NewTicker(ackWait / 3)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				_ = m.InProgress()
			case <-leaseDone:
				return
			}
		}
	}()
	h := &agentHandler{a: a, pay: pay, attempt: hdr.Attempt}
	h.streams = redact.NewStream(h.secrets.mask, h.secrets.values)
	exec, engine := a.exec, EngineInterp
	if hdr.Build != nil && !hdr.Exec.SQL {
		ex, release, nerr := a.native(runCtx, hdr.Build, pay)
		if nerr == nil {
			exec, engine = ex, EngineCompiled
			if strings.HasPrefix(hdr.Build.Hash, ProjectKernelPrefix) {
				engine = EngineInterp
			}
			defer release()
		} else {
			h.Log(protocol.LogLine{Level: "warn", Msg: "ran interpreted on worker " + a.cfg.ID + ": " + nerr.Error(), Time: time.Now()})
		}
	}
	var res *protocol.Result
	var out *sdk.Table
	if inputs, res = a.readInputs(runCtx, hdr.Exec, inputs, h); res == nil {
		if hdr.Exec.SQL {
			res, out = a.runSQL(runCtx, hdr.Exec, inputs, h)
			engine = EngineSQL
		} else {
			res, out, err = exec.Exec(runCtx, hdr.Exec, inputs, h)
		}
	}
	res, out = h.secrets.result(res, out) // nothing the block saw of a secret leaves in clear
	h.flush()
	endTaskSpan(span, engine, res, err)
	if ctx.Err() != nil {
		_ = m.Nak()
		return
	}
	switch {
	case err != nil && runCtx.Err() != nil:
		res = &protocol.Result{Error: &protocol.RunError{Kind: protocol.ErrInterrupted, Message: "interrupted before a kernel on worker " + a.cfg.ID + " took it"}}
	case err != nil:
		res = &protocol.Result{Error: &protocol.RunError{Kind: protocol.ErrCrash, Message: "worker " + a.cfg.ID + ": no kernel: " + err.Error()}}
	}
	if err == nil && res != nil && res.Error == nil {
		out = a.writeOutput(runCtx, hdr.Exec, res, out, h)
	}
	rh := &resultHeader{Label: hdr.Label, Attempt: hdr.Attempt, Worker: a.cfg.ID, Engine: engine, Result: res, Output: h.chunks()}
	var rb []byte
	if out != nil {
		rb, err = encodeFrame(rh, out)
	} else {
		rb, err = encodeFrame(rh)
	}
	if err != nil {
		rh.Result = &protocol.Result{Error: &protocol.RunError{Kind: protocol.ErrOutput, Message: "encode the output on worker " + a.cfg.ID + ": " + err.Error()}}
		rb, _ = encodeFrame(rh)
	}
	object := "result/" + strconv.FormatUint(hdr.Attempt, 10) + "/" + strconv.FormatUint(uint64(time.Now().UnixNano()), 36)
	pubCtx := context.Background() // the result must go out even while shutting down
	rm, err := pay.pack(pubCtx, a.n.resultSubjectOf(hdr.Attempt), object, rb)
	if err == nil {
		id := resultID(hdr.Label, hdr.Attempt, a.cfg.ID)
		err = retry(pubCtx, a.s.CallTimeout, "publish "+id, func(ctx context.Context) error {
			_, err := a.js.PublishMsg(ctx, rm, jetstream.WithMsgID(id))
			return err
		})
	}
	if err != nil {
		// Not recorded: let another worker (or this one) run it again.
		_ = m.Nak()
		return
	}
	a.ran.Add(1)
	_ = m.Ack()
}

// heartbeats announces the worker until ctx ends.
func (a *Agent) heartbeats(ctx context.Context) {
	t := time.NewTicker(heartbeatEvery)
	defer t.Stop()
	a.beat(false)
	for {
		select {
		case <-t.C:
			a.beat(false)
		case <-ctx.Done():
			return
		}
	}
}

func (a *Agent) beat(leaving bool) {
	hb := Heartbeat{ID: a.cfg.ID, Host: a.host, PID: os.Getpid(), Slots: a.cfg.Slots, Busy: int(a.busy.Load()),
		Version: a.cfg.Version, Local: a.cfg.Local, Platform: Platform(), Compiled: a.bins != nil,
		Started: a.started, At: time.Now(), Leaving: leaving}
	b, _ := json.Marshal(hb)
	_ = a.nc.Publish(a.n.heartbeat, b)
	if leaving {
		_ = a.nc.FlushTimeout(time.Second)
	}
}

// agentHandler keeps what a block streams for the result, and forwards its
// host calls to the coordinator.
type agentHandler struct {
	a       *Agent
	pay     *payloads
	attempt uint64

	secrets masker // the values this task's secret calls received
	// streams masks what the block prints across writes, so a secret
	// printed in pieces crosses NATS as *** (kernel/redact).
	streams *redact.Stream

	mu   sync.Mutex
	out  []outputChunk
	size int
	// secret says the block asked for a secret: its output goes back to the
	// coordinator, which masks secret values in it before it is stored.
	secret bool
}

// maxOutput bounds the streamed output a result carries.
const maxOutput = 256 << 10

func (h *agentHandler) add(c outputChunk) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(c.Data) + 64
	if c.Log != nil {
		n += len(c.Log.Msg)
	}
	if h.size+n > maxOutput {
		return
	}
	h.size += n
	h.out = append(h.out, c)
}

func (h *agentHandler) chunks() []outputChunk {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.out
}

func (h *agentHandler) Stream(name, data string) {
	if data = h.streams.Write(name, data); data != "" {
		h.add(outputChunk{Stream: name, Data: data})
	}
}

// flush keeps what the block printed last, held in case a secret went on.
func (h *agentHandler) flush() {
	for _, p := range h.streams.Flush() {
		h.add(outputChunk{Stream: p.Name, Data: p.Data})
	}
}

func (h *agentHandler) Log(l protocol.LogLine) {
	l.Msg = h.secrets.mask(l.Msg)
	h.add(outputChunk{Log: &l})
}

func (h *agentHandler) HostCall(ctx context.Context, c *protocol.HostCall) (*sdk.Table, error) {
	if c.Method == "secret" {
		// The block's table then goes back to the coordinator, which masks it.
		h.mu.Lock()
		h.secret = true
		h.mu.Unlock()
	}
	return h.call(ctx, c)
}

// call forwards a host call to the coordinator; a secret's value comes
// back sealed to a key made for this one call.
func (h *agentHandler) call(ctx context.Context, c *protocol.HostCall) (*sdk.Table, error) {
	var own *ecdh.PrivateKey
	if c.Method == "secret" {
		// A key for this one call: the coordinator seals the value to it.
		k, err := ecdh.X25519().GenerateKey(rand.Reader)
		if err != nil {
			return nil, err
		}
		own = k
		sc := *c
		sc.SealTo = k.PublicKey().Bytes()
		c = &sc
	}
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, h.a.cfg.HostCallTimeout)
	defer cancel()
	rep, err := h.a.nc.RequestWithContext(cctx, h.a.n.hostSubject(h.attempt), b)
	if err != nil {
		return nil, fmt.Errorf("%s answered by the coordinator: %w", c.Method, err)
	}
	body, object, err := h.pay.unpack(ctx, rep.Header, rep.Data)
	defer h.pay.drop(object)
	if err != nil {
		return nil, err
	}
	var hr hostReply
	tables, err := decodeFrame(body, &hr)
	if err != nil {
		return nil, fmt.Errorf("%s reply from the coordinator: %w", c.Method, err)
	}
	if hr.Error != "" {
		return nil, errors.New(hr.Error)
	}
	if own != nil {
		if hr.Secret == nil {
			return nil, fmt.Errorf("secret %q: the coordinator sent no sealed value", c.Secret)
		}
		v, err := hr.Secret.open(own, h.attempt, c.Secret)
		if err != nil {
			return nil, err
		}
		h.secrets.remember(v)
		return protocol.SecretTable(v), nil // to the kernel, on its pipe
	}
	if len(tables) == 0 {
		return sdk.NewTable(), nil
	}
	return tables[0], nil
}
