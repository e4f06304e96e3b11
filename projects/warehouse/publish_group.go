package warehouse

import (
	"context"
	"errors"
	"slices"
)

// ErrGroupSplit answers a request with no outputs whose group did not
// commit whole (PublishGroup): it was not written and may be handed over
// again.
var ErrGroupSplit = errors.New("not written: a request of its group failed")

// GroupPublish is one caller's publish (or stage) in a PublishGroup: the
// outputs of one run's partition and its Then, and, once the group ended,
// what Publish would have answered it. A request with no outputs writes
// nothing of its own: its Then (called with no versions) only hands the
// CommitHook what must be durable with the group (a starting run's state),
// and its Err says whether a transaction carrying it committed.
type GroupPublish struct {
	Outs  []Output
	Stage bool // write without making current, as Stage does
	Then  Then
	// Ctx is this request's own context (nil: PublishGroup's): a request
	// whose context ended before the transaction began is not written.
	Ctx context.Context

	Versions []Version
	Err      error // a *ConflictError when newer work kept it from becoming current
}

// PublishGroup writes several callers' publishes in one transaction: a
// backfill that knows its partitions finish together hands them over at
// once, so they share one COMMIT (most of a small publish's cost) instead
// of one each. Each request is still what Publish (or Stage) makes it on
// its own: compare-and-set and all-or-nothing. A request whose outputs are
// refused, or whose write fails, fails alone: the transaction is rolled
// back and the others commit without it, then it runs again alone
// (commitSplitting). No request's result is set before the transaction
// holding it committed, and a kill before that COMMIT keeps none of them.
func (w *Warehouse) PublishGroup(ctx context.Context, reqs []*GroupPublish) {
	bodies, pubs, carried := groupBodies(ctx, reqs)
	if slices.ContainsFunc(reqs, func(g *GroupPublish) bool { return g.Err != nil }) {
		bodies = dropWhole(bodies)
	}
	if len(bodies) > 0 {
		w.writeAll(bodies)
	}
	groupResults(reqs, pubs, carried)
}

// groupBodies makes each request's transaction body: pubs[i] is request
// i's publish, carried[i] its ride-along body when it has no outputs. A
// request whose outputs are refused has its Err set and no body.
func groupBodies(ctx context.Context, reqs []*GroupPublish) (bodies []*writeReq, pubs []*outputsReq, carried []*writeReq) {
	pubs = make([]*outputsReq, len(reqs))
	carried = make([]*writeReq, len(reqs))
	for i, g := range reqs {
		rctx := g.Ctx
		if rctx == nil {
			rctx = ctx
		}
		if len(g.Outs) == 0 {
			then := g.Then
			carried[i] = &writeReq{ctx: rctx, whole: true, fn: func(tx *writeTx) error {
				if then != nil {
					tx.rideAlong = append(tx.rideAlong, then(nil, nil))
				}
				return nil
			}}
			bodies = append(bodies, carried[i])
			continue
		}
		p, err := newOutputsReq(rctx, g.Outs, !g.Stage, g.Then)
		if err != nil {
			g.Versions, g.Err = nil, err
			continue
		}
		pubs[i] = p
		bodies = append(bodies, p.req)
	}
	return bodies, pubs, carried
}

// groupResults answers each request once its bodies' transaction ended.
func groupResults(reqs []*GroupPublish, pubs []*outputsReq, carried []*writeReq) {
	for i, p := range pubs {
		switch {
		case p != nil:
			reqs[i].Versions, reqs[i].Err = p.result()
		case carried[i] != nil:
			reqs[i].Versions, reqs[i].Err = nil, carried[i].err
		}
	}
}
