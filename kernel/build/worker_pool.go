package build

import (
	"context"
	"sync"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

// Executor runs blocks on a pool of one built worker: a supervisor.Pool
// whose kernel command is the worker binary, so it has the pool's limits,
// restarts and isolation. Blocks that did not compile answer with their
// compile error without starting a kernel.
type Executor struct {
	Worker *Worker
	pool   *supervisor.Pool
}

// Exec runs one block; it has the shape of supervisor.Pool.Exec.
func (e *Executor) Exec(ctx context.Context, req *protocol.ExecRequest, inputs []*sdk.Table, h supervisor.Handler) (*protocol.Result, *sdk.Table, error) {
	if rerr := e.Worker.Failed[req.Filename]; rerr != nil {
		cp := *rerr
		return &protocol.Result{Error: &cp}, nil, nil
	}
	return e.pool.Exec(ctx, req, inputs, h)
}

// Size is the number of runs the executor takes at once.
func (e *Executor) Size() int { return e.pool.Size() }

// Pools keeps one kernel pool per worker binary in use. A pool nobody holds
// is closed when newer ones replace it, so a project's old builds do not
// keep processes alive.
type Pools struct {
	cfg  supervisor.Config // Command is replaced by each worker's path
	size int

	mu    sync.Mutex
	pools map[string]*pooled
	order []string // least recently acquired first
}

type pooled struct {
	pool *supervisor.Pool
	refs int
}

// keepIdle is how many pools nobody holds stay warm.
const keepIdle = 2

// NewPools returns pools of size kernels each, started with cfg (its
// Command is ignored).
func NewPools(cfg supervisor.Config, size int) *Pools {
	return &Pools{cfg: cfg, size: size, pools: map[string]*pooled{}}
}

// Acquire returns an executor for w; call release when the run or backfill
// that uses it ends.
func (p *Pools) Acquire(w *Worker) (ex *Executor, release func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.pools[w.Path]
	if e == nil {
		cfg := p.cfg
		cfg.Command = []string{w.Path}
		e = &pooled{pool: supervisor.NewPool(cfg, p.size)}
		p.pools[w.Path] = e
	}
	e.refs++
	p.touch(w.Path)
	var once sync.Once
	return &Executor{Worker: w, pool: e.pool}, func() {
		once.Do(func() {
			p.mu.Lock()
			e.refs--
			p.evict()
			p.mu.Unlock()
		})
	}
}

func (p *Pools) touch(path string) {
	for i, x := range p.order {
		if x == path {
			p.order = append(p.order[:i], p.order[i+1:]...)
			break
		}
	}
	p.order = append(p.order, path)
}

// evict closes the oldest pools nobody holds beyond keepIdle.
func (p *Pools) evict() {
	idle := 0
	for i := len(p.order) - 1; i >= 0; i-- {
		path := p.order[i]
		e := p.pools[path]
		if e.refs > 0 {
			continue
		}
		idle++
		if idle > keepIdle {
			go e.pool.Close()
			delete(p.pools, path)
			p.order = append(p.order[:i], p.order[i+1:]...)
		}
	}
}

// Stats sums the kernels of every pool, for /metrics.
func (p *Pools) Stats() (running, idle int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.pools {
		r, i := e.pool.Stats()
		running += r
		idle += i
	}
	return running, idle
}

// Close stops every pool.
func (p *Pools) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for path, e := range p.pools {
		e.pool.Close()
		delete(p.pools, path)
	}
	p.order = nil
}
