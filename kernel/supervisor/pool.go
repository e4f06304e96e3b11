package supervisor

import (
	"context"
	"errors"
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
}

// NewPool returns a pool of at most size kernels, started lazily.
func NewPool(cfg Config, size int) *Pool {
	if size < 1 {
		size = 1
	}
	p := &Pool{cfg: cfg.withDefaults(), size: size, slot: make(chan struct{}, size), idle: make(chan *Kernel, size), all: map[*Kernel]bool{}}
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

func (p *Pool) put(k *Kernel) {
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
	ks := make([]*Kernel, 0, len(p.all))
	for k := range p.all {
		ks = append(ks, k)
	}
	p.mu.Unlock()
	for _, k := range ks {
		k.Close()
	}
}
