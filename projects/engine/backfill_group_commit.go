package engine

import (
	"context"
	"errors"
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
	store  *Store
	max    int           // most publishes in one transaction
	linger time.Duration // longest a waiting run waits for others

	mu sync.Mutex
	// active runs of the backfill (started, not ended); expect: runs
	// about to start in slots just freed, which will wait soon too.
	active, expect int
	producing      bool        // the backfill may still start runs
	pending        []*groupReq // waiting for the next transaction, in order
	pubs           int         // of them, publishes
	rows           int         // the publishes' rows
	since          time.Time   // when the oldest of pending came
	// failing counts the runs whose publish failed and that have not
	// ended: their final state is not durable yet, so no run starts in
	// the slots they gave back (start) until cleared is closed.
	failing int
	cleared chan struct{}
	// eager: the transaction begins with the first request and each is
	// written as it comes (open, fed of pending), so the writer inserts
	// while runs compute; only the loop touches open.
	eager      bool
	open       *warehouse.GroupTx
	fed        int
	kick       chan struct{}
	stop, done chan struct{}
}

// groupSeat is one run's place in its backfill's group commit.
type groupSeat struct {
	g      *groupCommit
	failed bool // its publish failed (under g.mu): it holds g.failing up
}

// groupMax, groupRows and groupLinger are the policy. A transaction's
// fixed cost (BEGIN, COMMIT, the catalog flush's handful of statements,
// the run events' appender) is about 2 ms of CPU here whatever it carries,
// against ~0.15 ms per small partition, so a backfill of many small cells
// runs at the rate its groups allow: 8 a transaction gave 630 µs of CPU a
// cell, 64 gave 445 (BenchmarkBackfillCells, docs/performance.md). A
// group is bounded by rows as well (groupRows): a bigger transaction
// holds the write lock longer against interactive runs, and a failing
// publish costs the others of its group their bodies run again; big
// partitions rarely finish together anyway. Groups only grow as large as
// the runs in flight: a backfill of small cells wants a concurrency of
// 32 or more (docs/performance.md). 20 ms is a
// few of this machine's small partitions: partitions that take seconds
// rarely finish together and do not wait long for each other, and a
// commit's 3 ms do not matter to them.
//
// A DuckLake commit is another matter: 40-55 ms of the coordinator's CPU
// whatever it carries (measured, REPORT-lakewrite), against 3 ms for the
// file, so on a lake a transaction takes up to lakeGroupMax publishes (the
// warehouse's own bound on a group; fewer than a file's since groupMax
// went from 8 to 64, which was measured on a file only) and a waiting run waits up to
// lakeGroupLinger for others (the block events queued meanwhile wait
// longer still, lakeLazyDelay, so they ride with it). The linger matters
// only when runs wait for something else than the commit (a worker's
// slot): once every run of the backfill waits, it commits at once.
const (
	groupMax        = 64
	groupRows       = 100_000
	groupLinger     = 20 * time.Millisecond
	lakeGroupMax    = 32
	lakeGroupLinger = time.Second
)

// groupReq is one run waiting for the next group transaction: its publish,
// or (no outputs) its running event. settled, when set, runs once the
// transaction ended, before any waiter of it is answered.
type groupReq struct {
	seat    *groupSeat
	req     warehouse.GroupPublish
	settled func(err error)
	done    chan struct{}
}

func newGroupCommit(wh *warehouse.Warehouse, store *Store) *groupCommit {
	g := &groupCommit{wh: wh, store: store, max: groupMax, linger: groupLinger, producing: true,
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	if wh.CostlyCommits() {
		g.max, g.linger = lakeGroupMax, lakeGroupLinger
	} else {
		// Not on a lake: there each flush would be files of its own.
		g.eager = eagerGroups
	}
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

// join counts a run starting (in a slot a freed expected, if any) and
// gives it its seat.
func (g *groupCommit) join() *groupSeat {
	g.mu.Lock()
	g.active++
	g.expect = max(0, g.expect-1)
	g.mu.Unlock()
	return &groupSeat{g: g}
}

// inFlight is how many runs have started and not ended: some of them may
// not be in the log yet (their running event waits for the next commit).
func (g *groupCommit) inFlight() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.active
}

// leave counts a run ended: its final state is durable (or could not be
// made so), so one whose publish failed no longer holds starts back.
func (s *groupSeat) leave() {
	g := s.g
	g.mu.Lock()
	g.active--
	if s.failed {
		s.failed = false
		if g.failing--; g.failing == 0 {
			close(g.cleared)
		}
	}
	g.mu.Unlock()
	g.poke()
}

// freed counts a slot given back; more says the backfill will start
// another run in it, worth waiting for.
func (g *groupCommit) freed(more bool) {
	g.mu.Lock()
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

// enqueue adds r to the next transaction.
func (g *groupCommit) enqueue(r *groupReq) {
	g.mu.Lock()
	if len(g.pending) == 0 {
		g.since = time.Now()
	}
	g.pending = append(g.pending, r)
	if len(r.req.Outs) > 0 {
		g.pubs++
		for _, o := range r.req.Outs {
			if o.Table != nil {
				g.rows += o.Table.Len()
			}
		}
	}
	g.mu.Unlock()
	g.poke()
}

// start makes a run's running event durable in the next group
// transaction, which it alone writes: no other transaction can take it
// before the publishes handed over ahead of it (a run that started in
// the slot of one whose publish is pending never counts running beside
// it in the log), and the run's blocks start after those publishes
// committed (they read what they wrote, a block's cursor included).
// The event is written only if the whole transaction is: when a publish
// of it failed, that run's final state comes in a transaction of its own
// later, so the event waits for it (and any other failed run's) and is
// handed over again.
func (s *groupSeat) start(ctx context.Context, ev Event) error {
	g := s.g
	if ev.At.IsZero() {
		ev.At = time.Now()
	}
	for {
		r := &groupReq{seat: s, done: make(chan struct{})}
		r.req = warehouse.GroupPublish{Ctx: ctx, Then: func([]warehouse.Version, *warehouse.ConflictError) any {
			return rideEvents(g.store.number([]Event{ev}))
		}}
		g.enqueue(r)
		<-r.done
		if !errors.Is(r.req.Err, warehouse.ErrGroupSplit) {
			return r.req.Err
		}
		g.mu.Lock()
		wait := g.cleared
		if g.failing == 0 {
			wait = nil
		}
		g.mu.Unlock()
		if wait != nil {
			select {
			case <-wait:
			case <-ctx.Done():
				return context.Cause(ctx)
			}
		}
	}
}

// publish hands a run's outputs to the next group transaction, gives the
// run's slot back (handoff: it computes nothing more) and returns what the
// warehouse answered once the transaction ended.
func (s *groupSeat) publish(ctx context.Context, outs []warehouse.Output, stage bool, then warehouse.Then, settled func(error), handoff func()) ([]warehouse.Version, error) {
	g := s.g
	r := &groupReq{seat: s, req: warehouse.GroupPublish{Outs: outs, Stage: stage, Then: then, Ctx: ctx}, settled: settled, done: make(chan struct{})}
	g.enqueue(r)
	if handoff != nil {
		handoff()
	}
	<-r.done // not ctx: a publish handed over is answered by its transaction
	return r.req.Versions, r.req.Err
}

// due says whether to commit now, or else how long until the oldest
// waiter has waited long enough (0: nothing waits).
func (g *groupCommit) due(now time.Time) (bool, time.Duration) {
	if len(g.pending) == 0 {
		return false, 0
	}
	if g.pubs >= g.max || g.rows >= groupRows || (len(g.pending) >= g.active && g.expect == 0) {
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
			if g.eager {
				g.feed()
			}
			if wait > 0 {
				timer.Reset(wait)
			}
			continue
		}
		g.commit()
		g.poke() // runs that came meanwhile
	}
}

// commit runs one transaction for everything waiting
// (warehouse.PublishGroup), settles each publish, then answers them all.
func (g *groupCommit) commit() {
	g.mu.Lock()
	batch, fed := g.pending, g.fed
	g.pending, g.pubs, g.rows, g.fed = nil, 0, 0, 0
	g.mu.Unlock()
	if len(batch) == 0 {
		return
	}
	reqs := make([]*warehouse.GroupPublish, len(batch))
	for i, r := range batch {
		reqs[i] = &r.req
	}
	if g.open != nil {
		g.open.Add(reqs[fed:]...)
		g.open.Commit()
		g.open = nil
	} else {
		g.wh.PublishGroup(context.Background(), reqs)
	}
	g.mu.Lock()
	for _, r := range batch {
		if len(r.req.Outs) > 0 && r.req.Err != nil && warehouse.AsConflict(r.req.Err) == nil && !r.seat.failed {
			r.seat.failed = true
			if g.failing++; g.failing == 1 {
				g.cleared = make(chan struct{})
			}
		}
	}
	g.mu.Unlock()
	for _, r := range batch {
		if r.settled != nil {
			r.settled(r.req.Err)
		}
	}
	for _, r := range batch {
		close(r.done)
	}
}

// eagerGroups says whether a backfill's group transactions are eager
// (groupCommit.eager).
var eagerGroups = true

// feed writes the requests that came since the last feed in the open
// transaction, beginning it with the first.
func (g *groupCommit) feed() {
	g.mu.Lock()
	fresh := g.pending[g.fed:]
	g.fed = len(g.pending)
	g.mu.Unlock()
	if len(fresh) == 0 {
		return
	}
	reqs := make([]*warehouse.GroupPublish, len(fresh))
	for i, r := range fresh {
		reqs[i] = &r.req
	}
	if g.open == nil {
		g.open = g.wh.BeginGroup(context.Background())
	}
	g.open.Add(reqs...)
}
