package warehouse

import (
	"context"
	"slices"
)

// GroupTx is a PublishGroup whose requests come one after another: the
// transaction begins with the first and each request's work (its rows,
// its catalog rows) is written as it comes, while the callers still
// computing the next ones run beside it; one COMMIT ends it. A backfill
// uses it so that the single writer inserts while its runs compute,
// instead of the two taking turns (docs/performance.md).
//
// What PublishGroup guarantees holds unchanged: each request is
// compare-and-set and all-or-nothing, none is answered before the COMMIT
// holding it, and one that fails fails alone. DuckDB has no savepoint,
// and a failed statement aborts its transaction, so a failure (a refused
// request, a body's error, a context ended before its request was
// written) marks the group broken: from then on requests are only
// collected, and Commit rolls the transaction back and writes them all as
// PublishGroup does (commitSplitting: the others together, the failing
// one alone, the ride-along requests not at all). Their bodies run again,
// as they do whenever a group splits.
//
// The write lock is held from BeginGroup to Commit: other writers wait for
// the group, so its caller keeps it short (a backfill commits at most its
// linger after the first request).
type GroupTx struct {
	w   *Warehouse
	ctx context.Context
	tx  *writeTx // nil once broken (or when BEGIN failed)

	reqs    []*GroupPublish
	bodies  []*writeReq
	pubs    []*outputsReq
	carried []*writeReq
	split   bool // a request was refused or not written: ride-alongs are not
	locked  bool // holds w.mu (not when the warehouse was closed)
}

// BeginGroup locks the writer and begins the group's transaction.
func (w *Warehouse) BeginGroup(ctx context.Context) *GroupTx {
	g := &GroupTx{w: w, ctx: ctx}
	if w.checkOpen() != nil {
		return g // Commit answers each request the warehouse's error
	}
	w.mu.Lock()
	g.locked = true
	if w.writable(ctx) == nil {
		g.tx, _ = w.beginTx(ctx) // on error: broken, Commit retries and answers
	}
	return g
}

// Add writes reqs in the group's transaction now (once broken, only
// collects them). Their results are set by Commit.
func (g *GroupTx) Add(reqs ...*GroupPublish) {
	bodies, pubs, carried := groupBodies(g.ctx, reqs)
	g.reqs = append(g.reqs, reqs...)
	g.pubs = append(g.pubs, pubs...)
	g.carried = append(g.carried, carried...)
	g.bodies = append(g.bodies, bodies...)
	if slices.ContainsFunc(reqs, func(r *GroupPublish) bool { return r.Err != nil }) {
		g.split = true
		g.abort()
	}
	if g.tx == nil {
		return
	}
	for _, r := range bodies {
		if g.w.writable(r.ctx) != nil {
			g.abort()
			return
		}
		g.tx.ctx = r.ctx
		if err := r.fn(g.tx); err != nil {
			g.abort()
			return
		}
	}
	// The eager part: rows and catalog rows go in now, beside the runs
	// still computing, not all at the COMMIT.
	g.tx.ctx = g.ctx
	if err := g.tx.flush(); err != nil {
		g.abort()
	}
}

// abort rolls the open transaction back: Commit writes the bodies again.
func (g *GroupTx) abort() {
	if g.tx == nil {
		return
	}
	g.tx = nil
	g.w.rollback(g.ctx)
}

// Commit ends the group: COMMIT, or, when the group broke or COMMIT
// failed, the bodies written again as PublishGroup writes them. Then each
// request has its result, and the writer is unlocked.
func (g *GroupTx) Commit() {
	w := g.w
	defer groupResults(g.reqs, g.pubs, g.carried)
	if !g.locked {
		err := w.checkOpen()
		for _, r := range g.bodies {
			r.err = err
		}
		return
	}
	defer w.mu.Unlock()
	if tx := g.tx; tx != nil {
		g.tx = nil
		tx.ctx = g.ctx
		if w.endTx(tx, nil) == nil {
			return
		}
		// endTx rolled back: the bodies are written again.
	}
	live := g.bodies[:0:0]
	for _, r := range g.bodies {
		r.failed = false
		if r.err = w.writable(r.ctx); r.err == nil {
			live = append(live, r)
		}
	}
	if g.split || len(live) < len(g.bodies) {
		live = dropWhole(live)
	}
	w.commitSplitting(live)
}
