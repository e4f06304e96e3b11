package launcher

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/triggers"
)

// coalescer gathers upstream publications per event trigger until they can
// be launched as one downstream backfill per contiguous range.
type coalescer struct {
	l       *Loop
	mu      sync.Mutex
	batches map[string]*batch // by "pipeline/trigger"
	seq     int64             // the last change recorded in _strata.trigger_pending (event_pending.go)
}

type batch struct {
	pipeline, trigger, product string
	keys                       map[string]bool // upstream partitions that got a new current version
	by                         []string        // upstream runs or backfills that published them, first seen first
	backfills                  map[string]bool // of those, the backfills: wait for them to end
	last                       time.Time
	seq                        int64 // the newest recorded change it holds: its firing clears those up to here
}

func newCoalescer(l *Loop) *coalescer { return &coalescer{l: l, batches: map[string]*batch{}} }

// add records a publication for every event trigger naming one of its
// products, in memory and in _strata.trigger_pending.
func (c *coalescer) add(ctx context.Context, p *engine.Publication, now time.Time) {
	if p == nil {
		return
	}
	rows := c.addLocked(p, now)
	if err := c.l.store.notePending(ctx, now, rows); err != nil && ctx.Err() == nil {
		c.l.log.Warn("triggers: upstream changes are held in memory only; a restart before they fire loses them", "err", err)
	}
}

func (c *coalescer) addLocked(p *engine.Publication, now time.Time) []pendingRow {
	proj := c.l.eng.Project()
	c.mu.Lock()
	defer c.mu.Unlock()
	var rows []pendingRow
	for _, id := range proj.PipelineIDs() {
		pl := proj.Pipelines[id]
		for _, t := range pl.Triggers {
			if t.Kind != project.TriggerEvent || t.Disabled != "" {
				continue
			}
			for _, v := range p.Versions {
				if v.Product != t.Product {
					continue
				}
				key := pauseKey(pl.ID, t.ID)
				b := c.batches[key]
				if b == nil {
					b = &batch{pipeline: pl.ID, trigger: t.ID, product: t.Product, keys: map[string]bool{}, backfills: map[string]bool{}}
					c.batches[key] = b
				}
				by := p.BackfillID
				if by == "" {
					by = p.RunID
				}
				if !b.keys[v.Partition] || !contains(b.by, by) {
					c.seq++
					b.seq = c.seq
					rows = append(rows, pendingRow{pipeline: pl.ID, trigger: t.ID, product: t.Product, partition: v.Partition,
						by: by, byBackfill: p.BackfillID != "", seq: c.seq})
				}
				b.note(v.Partition, by, p.BackfillID != "")
				b.last = now
			}
		}
	}
	return rows
}

// note adds an upstream partition and what published it.
func (b *batch) note(partition, by string, byBackfill bool) {
	b.keys[partition] = true
	if byBackfill {
		b.backfills[by] = true
	}
	if !contains(b.by, by) {
		b.by = append(b.by, by)
	}
}

// restore loads the changes recorded before a restart: they fire a quiet
// period from now, once the upstream backfills among them (resumed by the
// engine) have ended.
func (c *coalescer) restore(ctx context.Context, now time.Time) error {
	seq, err := c.l.store.lastPending(ctx)
	if err != nil {
		return err
	}
	rows, err := c.l.store.pending(ctx)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq = max(c.seq, seq)
	for _, r := range rows {
		key := pauseKey(r.pipeline, r.trigger)
		b := c.batches[key]
		if b == nil {
			b = &batch{pipeline: r.pipeline, trigger: r.trigger, product: r.product, keys: map[string]bool{}, backfills: map[string]bool{}}
			c.batches[key] = b
		}
		b.note(r.partition, r.by, r.byBackfill)
		b.last, b.seq = now, max(b.seq, r.seq)
	}
	return nil
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// due says how long until the earliest batch's quiet period ends.
func (c *coalescer) due(now time.Time) (time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var d time.Duration
	ok := false
	for _, b := range c.batches {
		w := b.last.Add(c.l.quiet).Sub(now)
		if len(b.backfills) > 0 {
			w = max(w, c.l.quiet) // re-check a running upstream backfill every quiet period
		}
		if !ok || w < d {
			d, ok = w, true
		}
	}
	return d, ok
}

// flush launches the batches whose upstream work has ended and that have
// been quiet long enough. take reads the publications already queued for
// the loop first: upstream work publishes before it ends, so once its end is
// seen here, what it published is in that queue. Without it a batch fired
// without the changes still queued (the last days of an upstream backfill
// that had just ended), and those fired again as a second downstream
// backfill. A batch that takes in a change waits a quiet period again.
func (c *coalescer) flush(ctx context.Context, now time.Time, take func()) {
	c.mu.Lock()
	var keys []string
	for key, b := range c.batches {
		if now.Sub(b.last) < c.l.quiet || c.upstreamRunning(ctx, b) {
			continue
		}
		keys = append(keys, key)
	}
	c.mu.Unlock()
	if len(keys) == 0 {
		return
	}
	take()
	c.mu.Lock()
	var ready []*batch
	for _, key := range keys {
		if b := c.batches[key]; b != nil && now.Sub(b.last) >= c.l.quiet {
			ready = append(ready, b)
			delete(c.batches, key)
		}
	}
	c.mu.Unlock()
	sort.Slice(ready, func(i, j int) bool { return ready[i].pipeline+ready[i].trigger < ready[j].pipeline+ready[j].trigger })
	for _, b := range ready {
		if err := c.fire(ctx, b, now); err != nil && ctx.Err() == nil {
			c.l.log.Warn("triggers: event", "pipeline", b.pipeline, "trigger", b.trigger, "err", err)
		}
	}
}

// upstreamRunning: an upstream backfill still publishing will add more
// partitions; one downstream backfill follows it when it ends.
func (c *coalescer) upstreamRunning(ctx context.Context, b *batch) bool {
	for id := range b.backfills {
		st, err := c.l.eng.Backfill(ctx, id)
		if err == nil && !st.State.Final() && st.InProcess {
			return true
		}
	}
	return false
}

// fire maps the batch to downstream partitions and launches them.
func (c *coalescer) fire(ctx context.Context, b *batch, now time.Time) error {
	proj := c.l.eng.Project()
	pl := proj.Pipelines[b.pipeline]
	if pl == nil || pl.Trigger(b.trigger) == nil {
		// Removed from the file meanwhile: nothing fires for its changes.
		return c.l.store.recordFired(ctx, b.pipeline, b.trigger, b.seq)
	}
	t := pl.Trigger(b.trigger)
	if t.Changes == project.ChangesNewKey {
		return c.fireNewKeys(ctx, b, pl, t, now)
	}
	base := Firing{Pipeline: pl.ID, Trigger: t.ID, Source: project.TriggerEvent, Tick: now, RecordedAt: now}
	upKeys := make([]string, 0, len(b.keys))
	for k := range b.keys {
		upKeys = append(upKeys, k)
	}
	sort.Strings(upKeys)
	origin := &engine.Origin{Kind: engine.OriginTrigger, Trigger: t.ID, TriggerKind: t.Kind,
		Upstream: &engine.Upstream{Product: b.product, From: upKeys[0], To: upKeys[len(upKeys)-1], Partitions: len(upKeys), By: strings.Join(b.by, ",")}}
	paused, _ := Paused(proj.Dir)
	ranges, err := affected(proj, pl, b.product, upKeys, now)
	if err != nil || len(pl.Problems) > 0 {
		f := base
		f.Action, f.Origin = ActionFailed, encodeOrigin(origin)
		if err != nil {
			f.Detail = err.Error()
		} else {
			f.Detail = "the pipeline has problems: " + pl.Problems[0].String()
		}
		return c.l.store.recordFired(ctx, b.pipeline, b.trigger, b.seq, f)
	}
	spec, _ := engine.SpecOf(pl.Partitions)
	var fs []Firing
	for _, r := range ranges {
		f := base
		f.From, f.To, f.Origin = r[0], r[1], encodeOrigin(origin)
		f.Detail = fmt.Sprintf("event: %s %s..%s (%d partitions) by %s", b.product, upKeys[0], upKeys[len(upKeys)-1], len(upKeys), origin.Upstream.By)
		if _, ok := paused[pauseKey(pl.ID, t.ID)]; ok {
			f.Action, f.Detail = ActionSkipped, "paused; "+f.Detail
		} else {
			f.Action, f.WorkKind = ActionLaunched, workKind(spec)
			// The flush time keeps a later rewrite by the same upstream backfill (a
			// retry) from colliding with this batch; a replay reads the recorded id.
			f.WorkID = triggers.EventID(pl.ID, t.ID, b.by[0]+"_"+r[0]+"_"+now.UTC().Format("20060102T150405.000Z"))
		}
		fs = append(fs, f)
	}
	return c.launch(ctx, b, pl.ID, fs)
}

// affected maps upstream partitions of product to the downstream pipeline's
// partitions that overlap them in time (a day to its week, a month to its
// days), keeps those that have started, and groups them into contiguous
// ranges, oldest first.
func affected(proj *project.Project, down *project.Pipeline, product string, upKeys []string, now time.Time) ([][2]string, error) {
	_, ub := proj.Product(product)
	if ub == nil {
		return nil, fmt.Errorf("product %s is no longer exposed by any pipeline", product)
	}
	upSpec, err := engine.SpecOf(ub.Partitions)
	if err != nil {
		return nil, err
	}
	downSpec, err := engine.SpecOf(down.Partitions)
	if err != nil {
		return nil, err
	}
	seen := map[string]partitions.Partition{}
	for _, k := range upKeys {
		p, err := upSpec.Parse(k)
		if err != nil {
			if upSpec.Interval == partitions.None {
				p = partitions.Partition{Key: partitions.AllKey}
			} else {
				return nil, fmt.Errorf("upstream %s partition %q: %w", product, k, err)
			}
		}
		var over []partitions.Partition
		switch {
		case downSpec.Interval == partitions.None:
			over = []partitions.Partition{{Key: partitions.AllKey}}
		case upSpec.Interval == partitions.None:
			// An unpartitioned upstream feeds every partition: run the latest complete one.
			if lp := downSpec.Latest(now); lp.Key != "" {
				over = []partitions.Partition{lp}
			}
		default:
			over = upSpec.Containing(p, downSpec)
		}
		for _, q := range over {
			if q.Key != partitions.AllKey && q.Start.After(now) {
				continue // has not started: nothing to compute yet
			}
			seen[q.Key] = q
		}
	}
	parts := make([]partitions.Partition, 0, len(seen))
	for _, p := range seen {
		parts = append(parts, p)
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].Start.Before(parts[j].Start) })
	var out [][2]string
	for i, p := range parts {
		if i > 0 && downSpec.Interval != partitions.None && downSpec.Next(parts[i-1]).Key == p.Key {
			out[len(out)-1][1] = p.Key
			continue
		}
		out = append(out, [2]string{p.Key, p.Key})
	}
	return out, nil
}

// launch records fs as b's firings (its pending changes consumed in the
// same transaction), tells the pipeline's watchers, then queues the work
// of those that launch: recorded first, so a crash launches it at restart.
func (c *coalescer) launch(ctx context.Context, b *batch, pipeline string, fs []Firing) error {
	if err := c.l.store.recordFired(ctx, b.pipeline, b.trigger, b.seq, fs...); err != nil {
		return err
	}
	c.l.notify(pipeline, fs)
	for _, f := range fs {
		if f.Action == ActionLaunched {
			c.l.enqueue(f)
		}
	}
	return nil
}
