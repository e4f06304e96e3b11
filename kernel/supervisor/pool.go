package supervisor

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
)

// Pool keeps up to Size warm kernels for runs and backfills. Its size is the
// global cap on concurrent block runs. A kernel that crashed, timed out or
// asked for a restart is replaced in the background, so the next run does not
// pay the start-up.
type Pool struct {
	cfg  Config
	size int
	slot chan struct{} // one token per kernel that may exist
	idle chan *Kernel

	mu     sync.Mutex
	closed bool
	all    map[*Kernel]bool
	lent   map[*Kernel]bool // kernels started on a loan (WithLoan), beyond size
}

type loanKey struct{}

// WithLoan marks ctx as work that a holder of one of the pool's kernels
// waits for, blocked: a block whose host call (a freshness refresh of the
// product it reads) runs another block and waits for it. With every kernel
// held by such waiters, a plain Exec would wait for a kernel that only its
// own end frees, until the waiters time out. On a loan, when no kernel is
// free, the pool starts one more for this Exec and stops it after: the
// waiter's kernel lends its slot, and as it computes nothing while it
// waits, the cores stay shared by size kernels at a time.
func WithLoan(ctx context.Context) context.Context {
	return context.WithValue(ctx, loanKey{}, true)
}

func onLoan(ctx context.Context) bool {
	v, _ := ctx.Value(loanKey{}).(bool)
	return v
}

// NewPool returns a pool of at most size kernels, started lazily.
func NewPool(cfg Config, size int) *Pool {
	if size < 1 {
		size = 1
	}
	p := &Pool{cfg: cfg.withDefaults(), size: size, slot: make(chan struct{}, size), idle: make(chan *Kernel, size), all: map[*Kernel]bool{}, lent: map[*Kernel]bool{}}
	for i := 0; i < size; i++ {
		p.slot <- struct{}{}
	}
	return p
}

// Size is the pool's cap.
func (p *Pool) Size() int { return p.size }

// Exec runs a block on a pooled kernel.
func (p *Pool) Exec(ctx context.Context, req *protocol.ExecRequest, inputs []*sdk.Table, h Handler) (*protocol.Result, *sdk.Table, error) {
	k, err := p.get(ctx)
	if err != nil {
		return nil, nil, err
	}
	res, t := k.Exec(ctx, req, inputs, h)
	p.put(k)
	return res, t, nil
}

func (p *Pool) get(ctx context.Context) (*Kernel, error) {
	if onLoan(ctx) {
		return p.getLoan(ctx)
	}
	for {
		select {
		case k := <-p.idle:
			if k.Alive() {
				return k, nil
			}
			p.discard(k)
		case <-p.slot:
			return p.start(ctx)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// getLoan takes a free kernel if there is one, else starts one on the
// loan (see WithLoan).
func (p *Pool) getLoan(ctx context.Context) (*Kernel, error) {
	for {
		select {
		case k := <-p.idle:
			if k.Alive() {
				return k, nil
			}
			p.discard(k)
			continue
		case <-p.slot:
			return p.start(ctx)
		default:
		}
		k, err := Start(ctx, p.cfg)
		if err != nil {
			return nil, fmt.Errorf("every one of the %d kernels is held by a block waiting for this run, and the one more it lends could not start: %w", p.size, err)
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			k.Close()
			return nil, errors.New("kernel pool is closed")
		}
		p.lent[k] = true
		p.mu.Unlock()
		return k, nil
	}
}

func (p *Pool) put(k *Kernel) {
	p.mu.Lock()
	lent := p.lent[k]
	delete(p.lent, k)
	p.mu.Unlock()
	if lent {
		k.Close() // the loan ends with its run: the slot goes back to its waiter
		return
	}
	if !k.Alive() {
		p.discard(k)
		go p.warm()
		return
	}
	p.idle <- k
}

// warm starts a replacement kernel so the next Exec finds one ready.
func (p *Pool) warm() {
	select {
	case <-p.slot:
	default:
		return
	}
	k, err := p.start(context.Background())
	if err != nil {
		return
	}
	p.idle <- k
}

// start starts a kernel in a slot the caller has taken from p.slot and
// registers it. On failure, or if the pool has closed, the slot is handed back.
func (p *Pool) start(ctx context.Context) (*Kernel, error) {
	k, err := Start(ctx, p.cfg)
	if err != nil {
		p.slot <- struct{}{}
		return nil, err
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		k.Close()
		p.slot <- struct{}{}
		return nil, errors.New("kernel pool is closed")
	}
	p.all[k] = true
	p.mu.Unlock()
	return k, nil
}

func (p *Pool) discard(k *Kernel) {
	k.Kill()
	p.mu.Lock()
	delete(p.all, k)
	p.mu.Unlock()
	p.slot <- struct{}{}
}

// Stats reports kernels started and idle, for /metrics.
func (p *Pool) Stats() (running, idle int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.all), len(p.idle)
}

// Close stops every kernel.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	ks := make([]*Kernel, 0, len(p.all)+len(p.lent))
	for k := range p.all {
		ks = append(ks, k)
	}
	for k := range p.lent {
		ks = append(ks, k)
	}
	p.mu.Unlock()
	for _, k := range ks {
		k.Close()
	}
}
