package launcher

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/triggers"
)

// A new-key trigger (when: {product: dim_customers, changes: new-key})
// follows the product that holds the key set of one of the pipeline's
// dynamic dimensions. Its publications are gathered like any event
// trigger's (quiet period, upstream backfills waited for, pending rows
// surviving a restart), but a firing reads the key set as the product now
// is (recording a new key set version when it changed, as a plan does) and
// launches the cells of the keys added since the version the trigger last
// fired for: one backfill per dimension, `where dim=<new keys>` over the
// time window of `run:` (affected: every time partition from the start to
// the latest complete one), pinned to that key set version.
//
// The version fired for is recorded with the firing (box column), so a
// restart neither loses new keys (they are still absent from the last
// fired version) nor runs a key twice; the work id derives from the key
// set version, so a replayed firing finds the backfill it launched. A
// trigger that never fired compares against the version before the
// current one (what --where dim=@new selects). A publication that adds no
// key records nothing.

// fireNewKeys launches the new keys' cells for b.
func (c *coalescer) fireNewKeys(ctx context.Context, b *batch, pl *project.Pipeline, t *project.Trigger, now time.Time) error {
	proj := c.l.eng.Project()
	origin := &engine.Origin{Kind: engine.OriginTrigger, Trigger: t.ID, TriggerKind: t.Kind,
		Upstream: &engine.Upstream{Product: b.product, Partitions: len(b.keys), By: strings.Join(b.by, ",")}}
	base := Firing{Pipeline: pl.ID, Trigger: t.ID, Source: project.TriggerEvent, Tick: now, RecordedAt: now, Origin: encodeOrigin(origin)}
	failed := func(err error) error {
		f := base
		f.Action, f.Detail = ActionFailed, err.Error()
		return c.l.store.recordFired(ctx, b.pipeline, b.trigger, b.seq, f)
	}
	if len(pl.Problems) > 0 {
		return failed(fmt.Errorf("the pipeline has problems: %s", pl.Problems[0].String()))
	}
	spec, err := engine.SpecOf(pl.Partitions)
	if err != nil {
		return failed(err)
	}
	from, to, err := newKeyWindow(spec, t.Run, now)
	if err != nil {
		return failed(err)
	}
	// Without a time dimension the box is the new keys alone: from and to
	// stay empty, as the engine wants them (targetOf).
	window := "time " + from + ".." + to
	if spec.Interval == partitions.None {
		window = "every cell of the new keys (no time dimension)"
	}
	paused, _ := Paused(proj.Dir)
	var fs []Firing
	for _, dim := range t.Dims {
		ks, err := c.l.eng.CurrentKeySet(ctx, pl.ID, dim)
		if err != nil {
			return failed(err)
		}
		added, since, err := c.addedSince(ctx, pl.ID, t.ID, ks)
		if err != nil {
			return failed(err)
		}
		if len(added) == 0 {
			continue
		}
		f := base
		f.From, f.To = from, to
		f.Where = map[string][]string{dim: added}
		f.KeySets = map[string]int{dim: ks.Version}
		f.Detail = fmt.Sprintf("new keys of %s (key set v%d, since v%d): %s; %s", dim, ks.Version, since, strings.Join(added, ", "), window)
		if _, ok := paused[pauseKey(pl.ID, t.ID)]; ok {
			f.Action, f.Detail = ActionSkipped, "paused; "+f.Detail
		} else {
			f.Action, f.WorkKind = ActionLaunched, WorkBackfill
			f.WorkID = triggers.EventID(pl.ID, t.ID, fmt.Sprintf("%s_v%d", dim, ks.Version))
		}
		fs = append(fs, f)
	}
	return c.launch(ctx, b, pl.ID, fs)
}

// addedSince lists the keys of ks absent from the key set version the
// trigger last fired for (the version before ks when it never fired), and
// that version.
func (c *coalescer) addedSince(ctx context.Context, pipeline, trigger string, ks *engine.KeySet) ([]string, int, error) {
	last, err := c.l.store.lastKeySet(ctx, pipeline, trigger, ks.Dimension)
	if err != nil {
		return nil, 0, err
	}
	if last == 0 {
		return ks.Added, ks.Version - 1, nil
	}
	if last >= ks.Version {
		return nil, last, nil
	}
	before, err := c.l.eng.KeySetAt(ctx, pipeline, ks.Dimension, last)
	if err != nil {
		return nil, 0, err
	}
	var added []string
	for _, k := range ks.Keys {
		if before == nil || !slices.Contains(before.Keys, k) {
			added = append(added, k)
		}
	}
	return added, last, nil
}

// newKeyWindow is the time part of a new key's cells: run affected is
// every time partition from the pipeline's start to the latest complete
// one; the other runs are their schedule window at now.
func newKeyWindow(spec partitions.Spec, run triggers.RunSpec, now time.Time) (string, string, error) {
	if spec.Interval == partitions.None {
		return "", "", nil
	}
	if run.Kind != triggers.RunAffected {
		return run.Window(spec, now)
	}
	if spec.Start.IsZero() {
		return "", "", fmt.Errorf("a new key's cells start at the pipeline's first partition, and it has no partitions.start: add start, or give the trigger a window such as run: last 7")
	}
	first, last := spec.At(spec.Start), spec.Latest(now)
	if last.Key == "" || last.End.Compare(first.Start) <= 0 {
		return "", "", fmt.Errorf("no complete partition yet at %s (the first starts %s)", now.Format(time.RFC3339), spec.Start.Format(time.RFC3339))
	}
	return first.Key, last.Key, nil
}
