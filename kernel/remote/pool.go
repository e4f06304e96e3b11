package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

// Pool is the coordinator's side: Exec publishes a task and waits for the
// first result of that attempt. It has the local pool's interface, so the
// engine cannot tell where a block ran (but Result.Worker says).
type Pool struct {
	nc      *nats.Conn
	js      jetstream.JetStream
	n       names
	s       Settings
	pay     *payloads
	tasks   jetstream.Stream
	results jetstream.ConsumeContext
	subs    []*nats.Subscription
	reg     *Registry

	healMu    sync.Mutex   // one re-creation of the streams at a time
	recreated atomic.Int64 // times the streams were found gone and made again
	unwatch   context.CancelFunc
	watching  sync.WaitGroup

	attempt atomic.Uint64 // the last attempt handed out

	mu       sync.Mutex
	inflight map[uint64]*call // by attempt
	bySeq    map[uint64]*call // by task stream sequence, for MaxDeliver advisories
	closed   bool

	late      atomic.Int64 // results for an attempt already decided or no longer waited for
	traffic   trafficCounters
	cancelled atomic.Int64
	work      sync.WaitGroup // result handlers in flight
	sem       chan struct{}  // bounds result handlers
	blobs     chan struct{}  // bounds those fetching a large payload: each holds it twice (bytes and table)
}

// call is one Exec waiting for its result.
type call struct {
	attempt uint64
	label   string
	h       supervisor.Handler
	seq     uint64        // the task's stream sequence, once published
	msg     *nats.Msg     // the task as published, to send again if NATS loses it; nil for an object-store blob
	done    chan decision // buffered: the first decision is the only one
	decided bool
	lake    bool // a task over committed lake versions (Traffic.LakeSQL, LakeGo)
	sql     bool // a SQL block's task
}

// decision ends a call: a worker's result, or the pool's own failure.
type decision struct {
	hdr   *resultHeader
	table *sdk.Table
}

// maxBlobsInFlight bounds the large results the coordinator reads at once,
// and with it the coordinator's memory (about 2x each payload); a result
// waiting its turn is neither acked nor lost.
const maxBlobsInFlight = 2

// NewPool sets up the pool's streams on nc's JetStream and starts taking
// results and heartbeats. Tasks left in the stream by an earlier
// coordinator are purged: nobody waits for them, and the engine dispatches
// what still needs running under new attempts.
func NewPool(ctx context.Context, nc *nats.Conn, s Settings) (*Pool, error) {
	s = s.withDefaults()
	n, err := namesFor(s.Pool)
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	resCons, obs, err := setup(ctx, js, n, s)
	if err != nil {
		return nil, err
	}
	pay, err := newPayloads(obs, s.Artifacts, n.pool, s.CallTimeout)
	if err != nil {
		return nil, err
	}
	p := &Pool{nc: nc, js: js, n: n, s: s, pay: pay,
		reg: NewRegistry(), inflight: map[uint64]*call{}, bySeq: map[uint64]*call{}, sem: make(chan struct{}, 8), blobs: make(chan struct{}, maxBlobsInFlight)}
	// Attempts must never repeat an earlier coordinator's (JetStream would
	// drop the task as a duplicate inside its window): start from the clock.
	p.attempt.Store(uint64(time.Now().UnixMicro()))
	err = retry(ctx, s.CallTimeout, "open task stream", func(ctx context.Context) error {
		st, err := js.Stream(ctx, n.taskStream)
		if err == nil {
			err = st.Purge(ctx)
		}
		p.tasks = st
		return err
	})
	if err != nil {
		return nil, err
	}
	for subj, fn := range map[string]nats.MsgHandler{
		n.hostPrefix + ".*": p.onHostCall,
		n.maxDeliveries:     p.onMaxDeliveries,
		n.heartbeat:         p.onHeartbeat,
	} {
		sub, err := nc.Subscribe(subj, fn)
		if err != nil {
			p.Close()
			return nil, fmt.Errorf("subscribe %s: %w", subj, err)
		}
		p.subs = append(p.subs, sub)
	}
	// One consumer on the coordinator: Consume's prefetch is harmless here.
	p.results, err = resCons.Consume(p.onResult)
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("consume results: %w", err)
	}
	if err := nc.FlushTimeout(s.CallTimeout); err != nil {
		p.Close()
		return nil, err
	}
	wctx, unwatch := context.WithCancel(context.Background())
	p.unwatch = unwatch
	p.watching.Add(1)
	go func() { defer p.watching.Done(); p.watchStreams(wctx) }()
	return p, nil
}

// Size is the number of kernel slots of the workers heard from recently.
func (p *Pool) Size() int {
	n := 0
	for _, w := range p.reg.Live(time.Now()) {
		n += w.Slots
	}
	return max(n, 1)
}

// Workers lists the workers heard from recently.
func (p *Pool) Workers() *Registry { return p.reg }

// LateResults counts results that arrived for an attempt already decided
// (or abandoned): each is a run that happened twice and was not used.
func (p *Pool) LateResults() int64 { return p.late.Load() }

// Exec runs one block on whichever worker takes the task first.
func (p *Pool) Exec(ctx context.Context, req *protocol.ExecRequest, inputs []*sdk.Table, h supervisor.Handler) (*protocol.Result, *sdk.Table, error) {
	return p.exec(ctx, req, inputs, h, nil)
}

// exec publishes one task, on the compiled build when there is one.
func (p *Pool) exec(ctx context.Context, req *protocol.ExecRequest, inputs []*sdk.Table, h supervisor.Handler, build *BuildRef) (*protocol.Result, *sdk.Table, error) {
	c := &call{attempt: p.attempt.Add(1), label: req.Task, h: h, done: make(chan decision, 1), lake: len(req.InputVersions) > 0, sql: req.SQL}
	if c.label == "" {
		c.label = "exec"
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, nil, errors.New("remote pool is closed")
	}
	p.inflight[c.attempt] = c
	p.mu.Unlock()
	defer p.forget(c)

	body, err := encodeFrame(&taskHeader{Label: c.label, Attempt: c.attempt, Exec: req, Sent: time.Now(), Build: build}, inputs...)
	if err != nil {
		return nil, nil, fmt.Errorf("encode task %s: %w", taskID(c.label, c.attempt), err)
	}
	object := "task/" + strconv.FormatUint(c.attempt, 10)
	msg, err := p.pay.pack(ctx, p.n.taskSubject, object, body)
	if err != nil {
		return nil, nil, err
	}
	injectTrace(ctx, msg.Header)
	if isBlob(msg.Header) {
		defer p.pay.drop(object)
	}
	if !isBlob(msg.Header) || msg.Header.Get(artifactHeader) != "" {
		p.mu.Lock()
		c.msg = msg
		p.mu.Unlock()
	}
	id := taskID(c.label, c.attempt)
	err = retry(ctx, p.s.CallTimeout, "publish "+id, func(ctx context.Context) error {
		ack, err := p.js.PublishMsg(ctx, msg, jetstream.WithMsgID(id)) // a retry is a duplicate, never a second task
		if errors.Is(err, jetstream.ErrNoStreamResponse) || errors.Is(err, jetstream.ErrStreamNotFound) {
			// The server may have lost the stream (restarted without its
			// store): make it again now rather than at the next check.
			p.heal(ctx)
		}
		if err == nil {
			p.mu.Lock()
			c.seq = ack.Sequence
			p.bySeq[ack.Sequence] = c
			p.mu.Unlock()
		}
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	p.traffic.sent(req, inputs)

	select {
	case d := <-c.done:
		return p.finish(c, d)
	case <-ctx.Done():
	}
	// Cancelled: take the task back if no worker has it, tell the one that
	// has it to stop, and wait a little for its interrupted result.
	p.cancelled.Add(1)
	p.withdraw(c)
	grace := time.NewTimer(p.s.CallTimeout)
	defer grace.Stop()
	select {
	case d := <-c.done:
		return p.finish(c, d)
	case <-grace.C:
		return &protocol.Result{Error: &protocol.RunError{Kind: protocol.ErrInterrupted,
			Message: "interrupted (the worker running it did not confirm within " + p.s.CallTimeout.String() + ")"}}, nil, nil
	}
}

// finish replays what the block streamed into the run's handler and returns
// its result.
func (p *Pool) finish(c *call, d decision) (*protocol.Result, *sdk.Table, error) {
	if c.h != nil {
		for _, o := range d.hdr.Output {
			if o.Log != nil {
				c.h.Log(*o.Log)
			} else {
				c.h.Stream(o.Stream, o.Data)
			}
		}
	}
	res := d.hdr.Result
	if res == nil {
		res = &protocol.Result{Error: &protocol.RunError{Kind: protocol.ErrCrash, Message: "worker " + d.hdr.Worker + " sent a result without a body"}}
	}
	res.Worker, res.Engine = d.hdr.Worker, d.hdr.Engine
	p.traffic.received(c, res, d.table)
	return res, d.table, nil
}

// withdraw deletes a task nobody has finished from the stream and
// broadcasts its cancel to the workers.
func (p *Pool) withdraw(c *call) {
	p.mu.Lock()
	seq := c.seq
	p.mu.Unlock()
	_ = p.nc.Publish(p.n.cancelSubject, []byte(strconv.FormatUint(c.attempt, 10)))
	if seq > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), p.s.CallTimeout)
		_ = p.tasks.DeleteMsg(ctx, seq) // fails harmlessly when a worker already acked it
		cancel()
	}
}

func (p *Pool) forget(c *call) {
	p.mu.Lock()
	delete(p.inflight, c.attempt)
	if c.seq > 0 {
		delete(p.bySeq, c.seq)
	}
	c.decided = true
	p.mu.Unlock()
}

// decide hands the first decision for an attempt to its Exec; it reports
// false for an attempt already decided or no longer waited for.
func (p *Pool) decide(attempt uint64, label string, d decision) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.inflight[attempt]
	if c == nil || c.decided || c.label != label {
		return false
	}
	c.decided = true
	c.done <- d
	return true
}

// onResult takes a result from the result stream. It is acked once handled,
// used or not: the stream is a transport, the decision is decide's.
func (p *Pool) onResult(m jetstream.Msg) {
	p.sem <- struct{}{}
	p.work.Add(1)
	go func() {
		defer func() { <-p.sem; p.work.Done() }()
		defer func() { _ = m.Ack() }()
		if isBlob(m.Headers()) {
			p.blobs <- struct{}{}
			defer func() { <-p.blobs }()
		}
		body, object, err := p.pay.unpack(context.Background(), m.Headers(), m.Data())
		defer p.pay.drop(object)
		hdr := &resultHeader{}
		var tables []*sdk.Table
		if err == nil {
			tables, err = decodeFrame(body, hdr)
		}
		if err != nil {
			// The attempt is in the subject; fail it rather than wait for a
			// lease that will not expire (the worker acked its task).
			attempt, _ := strconv.ParseUint(m.Subject()[strings.LastIndexByte(m.Subject(), '.')+1:], 10, 64)
			p.mu.Lock()
			c := p.inflight[attempt]
			p.mu.Unlock()
			if c != nil {
				p.decide(attempt, c.label, decision{hdr: &resultHeader{Label: c.label, Attempt: attempt, Result: &protocol.Result{Error: &protocol.RunError{
					Kind: protocol.ErrCrash, Message: "unreadable result from a worker: " + err.Error()}}}})
			}
			return
		}
		var t *sdk.Table
		if len(tables) > 0 {
			t = tables[0]
		}
		if !p.decide(hdr.Attempt, hdr.Label, decision{hdr: hdr, table: t}) {
			p.late.Add(1)
		}
	}()
}

// onMaxDeliveries fails the run of a task handed out MaxDeliver times
// without a result, and deletes the message, which would otherwise stay in
// the work queue invisible to every worker.
func (p *Pool) onMaxDeliveries(m *nats.Msg) {
	var adv struct {
		StreamSeq  uint64 `json:"stream_seq"`
		Deliveries uint64 `json:"deliveries"`
	}
	if json.Unmarshal(m.Data, &adv) != nil || adv.StreamSeq == 0 {
		return
	}
	p.mu.Lock()
	c := p.bySeq[adv.StreamSeq]
	p.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), p.s.CallTimeout)
	_ = p.tasks.DeleteMsg(ctx, adv.StreamSeq)
	cancel()
	if c == nil {
		return
	}
	p.decide(c.attempt, c.label, decision{hdr: &resultHeader{Label: c.label, Attempt: c.attempt, Result: &protocol.Result{Error: &protocol.RunError{
		Kind: protocol.ErrCrash, Message: fmt.Sprintf("handed to workers %d times (the limit) and none finished it: each died, hung or lost its network within the %s lease", adv.Deliveries, p.s.AckWait)}}}})
}

func (p *Pool) onHeartbeat(m *nats.Msg) {
	var hb Heartbeat
	if json.Unmarshal(m.Data, &hb) == nil && hb.ID != "" {
		p.reg.Observe(hb, time.Now())
	}
}

// onHostCall answers a remote block's ctx.Query, ctx.Product or ctx.Secret
// with the run's own handler, as if the block ran here; a secret's value
// goes back sealed to the worker's key (secret_seal.go).
func (p *Pool) onHostCall(m *nats.Msg) {
	attempt, _ := strconv.ParseUint(m.Subject[strings.LastIndexByte(m.Subject, '.')+1:], 10, 64)
	p.mu.Lock()
	c := p.inflight[attempt]
	p.mu.Unlock()
	go func() {
		var t *sdk.Table
		var err error
		var hc protocol.HostCall
		var sealed *sealedSecret
		switch {
		case c == nil:
			err = errors.New("the run this call belongs to is no longer running on the coordinator")
		case c.h == nil:
			err = sdk.ErrNoWarehouse
		default:
			if err = json.Unmarshal(m.Data, &hc); err == nil {
				if hc.Method == "secret" {
					sealed, err = answerSecret(context.Background(), c, &hc)
					break
				}
				t, err = c.h.HostCall(context.Background(), &hc)
			}
		}
		rep := &hostReply{Secret: sealed}
		if err != nil {
			rep.Error = err.Error()
			rep.Secret = nil
		}
		var body []byte
		if err == nil {
			body, err = encodeFrame(rep, t)
		}
		if err != nil {
			body, _ = encodeFrame(&hostReply{Error: err.Error()})
		}
		object := fmt.Sprintf("host/%d/%d", attempt, hc.Seq)
		out, perr := p.pay.pack(context.Background(), m.Reply, object, body)
		if perr != nil {
			body, _ = encodeFrame(&hostReply{Error: perr.Error()})
			out = nats.NewMsg(m.Reply)
			out.Data = body
		}
		_ = m.RespondMsg(out)
	}()
}

// Close stops taking results; Exec calls still waiting get an error result.
func (p *Pool) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	for _, c := range p.inflight {
		if !c.decided {
			c.decided = true
			c.done <- decision{hdr: &resultHeader{Label: c.label, Attempt: c.attempt, Result: &protocol.Result{Error: &protocol.RunError{
				Kind: protocol.ErrInterrupted, Message: "interrupted: the coordinator is shutting down"}}}}
		}
	}
	p.mu.Unlock()
	if p.unwatch != nil {
		p.unwatch() // no heal swaps the result consumer after this
		p.watching.Wait()
	}
	p.mu.Lock()
	results := p.results
	p.mu.Unlock()
	if results != nil {
		results.Stop()
	}
	for _, s := range p.subs {
		_ = s.Unsubscribe()
	}
	p.work.Wait()
}
