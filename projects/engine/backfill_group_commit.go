package engine

import (
	"context"
	"sync"
	"time"

	"github.com/stratahq/strata/projects/warehouse"
)

// A backfill commits its partitions several to a warehouse transaction.
// A COMMIT costs about as much as a small partition's whole write (3 ms
// here, whatever it carries), and a backfill knows what the warehouse
// cannot: how many of its runs are still computing, hence whether waiting
// a little lets another partition share the next COMMIT. groupCommit is
// that knowledge: each run of the backfill says when it starts and ends
// and when it waits for a commit (its running event must be durable before
// its blocks start; its publish must commit before it ends), and the
// transaction is started as soon as every run of the backfill waits for
// it, or groupMax partitions do, or the oldest has waited groupLinger.
//
// Nothing is weakened by the wait: each partition's publish is still its
// own compare-and-set and all-or-nothing inside the shared transaction
// (warehouse.PublishGroup: a failing one is taken out and the others
// commit without it), and a run hears of its publish only once the
// transaction holding it committed, so no partition is reported done
// before it is durable; a kill before that COMMIT keeps none of the group,
// and the runs that were waiting had only their running state durable:
// the resume runs them again as the same runs, as it does any run a kill
// interrupted. The running events of the runs starting in slots just
// freed ride in the same transaction (CommitHook), so a full window of
// partitions costs two COMMITs: one for their running events, one for
// their publishes and final states.
type groupCommit struct {
	wh     *warehouse.Warehouse
	max    int           // most publishes in one transaction
	linger time.Duration // longest a waiting run waits for others

	mu sync.Mutex
	// active runs of the backfill (started, not ended); waiting: of them,
	// those waiting for a commit; expect: runs about to start in slots
	// just freed, which will wait soon too.
	active, waiting, expect int
	producing               bool // the backfill may still start runs
	pending                 []*groupPub
	waits                   []*groupWait // registered since the last commit began
	since                   time.Time    // when the oldest of waits registered
	kick                    chan struct{}
	stop, done              chan struct{}
}

// groupMax and groupLinger are the policy. 8 partitions a transaction
// already takes a COMMIT from 3 ms a partition to under 0.5 ms, while a
// failing publish costs at most 8 bodies run again; a bigger transaction
// also holds the write lock longer against interactive runs. 20 ms is a
// few of this machine's small partitions: partitions that take seconds
// rarely finish together and do not wait long for each other, and a
// commit's 3 ms do not matter to them.
const (
	groupMax    = 8
	groupLinger = 20 * time.Millisecond
)

// groupWait is one run waiting for a commit; covered once a commit that
// began after it registered ended (its waiting is no longer counted).
type groupWait struct{ covered bool }

// groupPub is one run's publish waiting for its group's transaction.
type groupPub struct {
	req  warehouse.GroupPublish
	wait *groupWait
	done chan struct{}
}

func newGroupCommit(wh *warehouse.Warehouse) *groupCommit {
	g := &groupCommit{wh: wh, max: groupMax, linger: groupLinger, producing: true,
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go g.loop()
	return g
}

// close stops the committer once every run ended (the backfill waited
// for its window).
func (g *groupCommit) close() {
	close(g.stop)
	<-g.done
}

func (g *groupCommit) poke() {
	select {
	case g.kick <- struct{}{}:
	default:
	}
}

// join counts a run starting (in a slot join's caller expected, if any).
func (g *groupCommit) join() {
	g.mu.Lock()
	g.active++
	g.expect = max(0, g.expect-1)
	g.mu.Unlock()
}

// leave counts a run ended; more says the backfill will start another in
// its slot, worth waiting for.
func (g *groupCommit) leave(more bool) {
	g.mu.Lock()
	g.active--
	if more && g.producing {
		g.expect++
	}
	g.mu.Unlock()
	g.poke()
}

// produced says the backfill starts no more partitions (rollups still may,
// but nothing is worth waiting for).
func (g *groupCommit) produced() {
	g.mu.Lock()
	g.producing, g.expect = false, 0
	g.mu.Unlock()
	g.poke()
}

// register counts a run waiting for the next commit (g.mu held).
func (g *groupCommit) register() *groupWait {
	w := &groupWait{}
	if len(g.waits) == 0 {
		g.since = time.Now()
	}
	g.waits = append(g.waits, w)
	g.waiting++
	return w
}

// await waits for events the caller queued without a commit of their own
// (Store.AppendLazy): the next group transaction carries them.
func (g *groupCommit) await(durable <-chan error) error {
	g.mu.Lock()
	w := g.register()
	g.mu.Unlock()
	g.poke()
	err := <-durable
	g.mu.Lock()
	if !w.covered {
		w.covered = true
		g.waiting--
	}
	g.mu.Unlock()
	return err
}

// publish hands a run's outputs to the next group transaction and returns
// what the warehouse answered once it ended.
func (g *groupCommit) publish(ctx context.Context, outs []warehouse.Output, stage bool, then warehouse.Then) ([]warehouse.Version, error) {
	p := &groupPub{req: warehouse.GroupPublish{Outs: outs, Stage: stage, Then: then, Ctx: ctx}, done: make(chan struct{})}
	g.mu.Lock()
	p.wait = g.register()
	g.pending = append(g.pending, p)
	g.mu.Unlock()
	g.poke()
	<-p.done // not ctx: a publish handed over is answered by its transaction
	return p.req.Versions, p.req.Err
}

// due says whether to commit now, or else how long until the oldest
// waiter has waited long enough (0: nothing waits).
func (g *groupCommit) due(now time.Time) (bool, time.Duration) {
	if len(g.waits) == 0 {
		return false, 0
	}
	if len(g.pending) >= g.max || (g.waiting >= g.active && g.expect == 0) {
		return true, 0
	}
	left := g.linger - now.Sub(g.since)
	return left <= 0, left
}

func (g *groupCommit) loop() {
	defer close(g.done)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		select {
		case <-g.kick:
		case <-timer.C:
		case <-g.stop:
			g.commit() // nothing should be left; never strand a waiter
			return
		}
		g.mu.Lock()
		now, wait := g.due(time.Now())
		g.mu.Unlock()
		if !now {
			if wait > 0 {
				timer.Reset(wait)
			}
			continue
		}
		g.commit()
		g.poke() // runs that registered meanwhile
	}
}

// commit runs one transaction for everything waiting: the publishes
// through warehouse.PublishGroup, or, when only running events wait, a
// Flush that carries them.
func (g *groupCommit) commit() {
	g.mu.Lock()
	pubs, waits := g.pending, g.waits
	g.pending, g.waits = nil, nil
	g.mu.Unlock()
	if len(waits) == 0 {
		return
	}
	ctx := context.Background()
	if len(pubs) > 0 {
		reqs := make([]*warehouse.GroupPublish, len(pubs))
		for i, p := range pubs {
			reqs[i] = &p.req
		}
		g.wh.PublishGroup(ctx, reqs)
	} else {
		// The events are answered through their own channels, also on
		// an error here; the Store's lazy commit is the fallback.
		_ = g.wh.Flush(ctx)
	}
	g.mu.Lock()
	for _, w := range waits {
		if !w.covered {
			w.covered = true
			g.waiting--
		}
	}
	g.mu.Unlock()
	for _, p := range pubs {
		close(p.done)
	}
}
