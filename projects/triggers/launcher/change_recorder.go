package launcher

import (
	"context"

	"github.com/stratahq/strata/projects/engine"
)

// RecordChanges notes, for the event triggers of the project, the upstream
// versions eng publishes until the returned stop is called, in
// _strata.trigger_pending, without firing anything: for the commands that
// run or backfill outside `strata start` (strata run, strata backfill and
// the rest), whose publishes no trigger loop sees. The next `strata start`
// loads them and runs the downstream partitions they affect; before, a
// CLI backfill of an upstream never ran its downstream.
//
// stop records what is still buffered, then returns. Not for a process
// that runs a Loop too: both would record the same changes.
func RecordChanges(ctx context.Context, cfg Config) (stop func(), err error) {
	l, err := New(ctx, cfg)
	if err != nil {
		return nil, err
	}
	seq, err := l.store.lastPending(ctx)
	if err != nil {
		return nil, err
	}
	l.events.seq = seq
	sub := l.eng.Hub().SubscribeKinds(1<<14, engine.NoticePublished)
	drain := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case n, ok := <-sub.C:
				if !ok {
					return
				}
				l.events.add(context.Background(), n.Published, l.clock.Now())
				l.events.forget()
			case <-drain:
				for {
					select {
					case n, ok := <-sub.C:
						if !ok {
							return
						}
						l.events.add(context.Background(), n.Published, l.clock.Now())
						l.events.forget()
					default:
						return
					}
				}
			}
		}
	}()
	return func() {
		close(drain)
		<-done
		sub.Close()
		if sub.Lagged {
			l.log.Warn("triggers: missed publish notices; downstream partitions may need a stale backfill")
		}
	}, nil
}

// forget drops the batches kept in memory: a recorder only writes them.
func (c *coalescer) forget() {
	c.mu.Lock()
	c.batches = map[string]*batch{}
	c.mu.Unlock()
}
