package engine

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// promoteLocks serializes what switches a review backfill's staged versions
// (promote, discard) per backfill. Both read the staged list, decide, and
// write: two at once each counted the same versions as theirs (three
// promotes answered 48 versions made current out of 22 staged) and left
// the state of whichever wrote last. The warehouse lock keeps other
// processes out, so a lock in this process is enough; a caller that finds
// one held is refused at once rather than queued, since what it meant to
// do has just been done, or is being done, by the other.
type promoteLocks struct {
	mu   sync.Mutex
	held map[string]RunningPromote
}

// RunningPromote is the promote or discard running for a backfill.
type RunningPromote struct {
	Op    string
	Only  string
	Since time.Time
}

// PromoteBusyError refuses a promote or discard of a backfill while another
// one of it runs; it names the one running (the API answers 409).
type PromoteBusyError struct {
	Backfill string
	Op       string // what was refused
	Running  RunningPromote
}

func (e *PromoteBusyError) Error() string {
	what := e.Running.Op
	if e.Running.Only != "" {
		what += " --only " + e.Running.Only
	}
	return fmt.Sprintf("%s of backfill %s refused: a %s of it started at %s is running, and one of them changes its staged versions at a time; "+
		"read the backfill again when it is done (it did what it says there, this %s nothing)",
		e.Op, e.Backfill, what, e.Running.Since.UTC().Format(time.RFC3339Nano), e.Op)
}

// acquire takes backfill id's lock for op, or refuses with a
// *PromoteBusyError; release gives it back.
func (l *promoteLocks) acquire(id, op, only string, now time.Time) (release func(), err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if h, busy := l.held[id]; busy {
		return nil, &PromoteBusyError{Backfill: id, Op: op, Running: h}
	}
	if l.held == nil {
		l.held = map[string]RunningPromote{}
	}
	l.held[id] = RunningPromote{Op: op, Only: only, Since: now}
	return func() {
		l.mu.Lock()
		delete(l.held, id)
		l.mu.Unlock()
	}, nil
}

// lastPromotion is a backfill's latest recorded promote, or nil.
func (e *Engine) lastPromotion(ctx context.Context, id string) *Promotion {
	ps, err := e.promotions(ctx, id)
	if err != nil || len(ps) == 0 {
		return nil
	}
	return &ps[len(ps)-1]
}
