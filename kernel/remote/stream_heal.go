package remote

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/stratahq/strata/kernel/protocol"
)

// A NATS server restarted without its store (a pod without a persistent
// volume) comes back empty: no task stream, no consumers, no object store.
// Every publish then fails "no response from stream" and every partition
// fails one after another while workers look healthy. The coordinator owns
// what setup made, so it watches for it and makes it again.

// healEvery is how often the coordinator checks that its streams exist.
const healEvery = heartbeatEvery

// watchStreams checks every healEvery that the pool's streams, consumers
// and bucket are there, and re-creates them when they are not.
func (p *Pool) watchStreams(ctx context.Context) {
	t := time.NewTicker(healEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = p.heal(ctx)
		}
	}
}

// missing names the first part of the pool the server does not have, or ""
// when everything is there (or the server cannot say right now: only a
// definite "not found" counts, never a timeout during an election).
func (p *Pool) missing(ctx context.Context) string {
	cctx, cancel := context.WithTimeout(ctx, p.s.CallTimeout)
	defer cancel()
	notFound := func(err error) bool {
		return errors.Is(err, jetstream.ErrStreamNotFound) || errors.Is(err, jetstream.ErrConsumerNotFound) || errors.Is(err, jetstream.ErrBucketNotFound)
	}
	if _, err := p.js.Stream(cctx, p.n.taskStream); notFound(err) {
		return "stream " + p.n.taskStream
	}
	if _, err := p.js.Consumer(cctx, p.n.taskStream, p.n.workerConsumer); notFound(err) {
		return "consumer " + p.n.workerConsumer
	}
	if _, err := p.js.Consumer(cctx, p.n.resultStream, p.n.resultConsumer); notFound(err) {
		return "consumer " + p.n.resultConsumer + " of stream " + p.n.resultStream
	}
	if _, err := p.js.ObjectStore(cctx, p.n.bucket); notFound(err) {
		return "object store " + p.n.bucket
	}
	return ""
}

// heal re-creates the pool's streams, consumers and bucket when the server
// lost them, takes results from the new result consumer, and hands the
// tasks that were lost with the old stream out again (or fails those whose
// input was in the lost object store, so their runs end rather than wait).
// It reports whether it re-created anything.
func (p *Pool) heal(ctx context.Context) bool {
	p.healMu.Lock()
	defer p.healMu.Unlock()
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		return false
	}
	what := p.missing(ctx)
	if what == "" {
		return false
	}
	resCons, _, err := setup(ctx, p.js, p.n, p.s)
	if err != nil {
		fmt.Fprintf(os.Stderr, "strata: the NATS server lost the pool's %s (restarted without its store?); re-creating it failed, will retry: %v\n", what, err)
		return false
	}
	results, err := resCons.Consume(p.onResult)
	if err != nil {
		fmt.Fprintf(os.Stderr, "strata: the NATS server lost the pool's %s; re-created the streams but cannot consume results, will retry: %v\n", what, err)
		return false
	}
	p.mu.Lock()
	old := p.results
	p.results = results
	var lost []*call
	for _, c := range p.inflight {
		if !c.decided && c.seq > 0 { // one not published yet is its Exec's to publish
			lost = append(lost, c)
		}
	}
	p.mu.Unlock()
	if old != nil {
		old.Stop()
	}
	p.recreated.Add(1)
	resent, failed := 0, 0
	for _, c := range lost {
		if p.resend(ctx, c) {
			resent++
			continue
		}
		failed++
		p.decide(c.attempt, c.label, decision{hdr: &resultHeader{Label: c.label, Attempt: c.attempt, Result: &protocol.Result{Error: &protocol.RunError{
			Kind: protocol.ErrCrash, Message: "the NATS server lost this task with its store (restarted without a persistent volume?), and its input was in the lost object store"}}}})
	}
	fmt.Fprintf(os.Stderr, "strata: the NATS server had lost the pool's %s (restarted without its store?): re-created the streams, consumers and object store of pool %s; %d tasks in flight sent again, %d failed; dispatching resumes\n",
		what, p.n.pool, resent, failed)
	return true
}

// resend publishes a lost task again under its own attempt: the duplicate
// window went with the stream, and a result its first delivery may still
// send is the same attempt's, so the first one decides as always.
func (p *Pool) resend(ctx context.Context, c *call) bool {
	p.mu.Lock()
	msg := c.msg
	p.mu.Unlock()
	if msg == nil {
		return false
	}
	err := retry(ctx, p.s.CallTimeout, "publish "+taskID(c.label, c.attempt), func(ctx context.Context) error {
		ack, err := p.js.PublishMsg(ctx, msg, jetstream.WithMsgID(taskID(c.label, c.attempt)))
		if err == nil {
			p.mu.Lock()
			if c.seq > 0 {
				delete(p.bySeq, c.seq)
			}
			if !c.decided {
				c.seq = ack.Sequence
				p.bySeq[ack.Sequence] = c
			}
			p.mu.Unlock()
		}
		return err
	})
	return err == nil
}

// Recreated counts the times the pool found its streams gone and made them
// again.
func (p *Pool) Recreated() int64 { return p.recreated.Load() }
