package launcher

import (
	"context"
	"fmt"
	"strings"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/envs"
	"github.com/stratahq/strata/projects/partitions"
)

// Triggers run in prod. An environment that asks (strata env create
// --triggers) gets a copy of each firing's work staged into it, under the
// firing's id suffixed with the environment's owner, so that it can be
// launched once only: a backfill with Into (or a run staged there), which
// publishes nothing and so fires nothing further. The copy is launched
// beside prod's work and never holds the trigger's queue. Which copies a
// firing has is recorded before its work launches (env_copies.go), and a
// restart launches those that had not ended.

// intoID is the deterministic id of a firing's copy for owner.
func intoID(workID, owner string) string {
	return workID + "_" + strings.ReplaceAll(owner, ":", "_")
}

// launchInto records, then launches, f's copies into every environment
// that asks now (and those recorded for it before a restart).
func (l *Loop) launchInto(ctx context.Context, f Firing) error {
	if l.into == nil {
		return nil
	}
	owners, err := l.into(ctx)
	if err != nil {
		return fmt.Errorf("list the environments that follow triggers: %w", err)
	}
	all, err := l.store.recordCopies(ctx, f, owners, l.clock.Now())
	if err != nil {
		return err
	}
	if l.lostCopies {
		return nil // a test's crash between the record and the launch
	}
	for _, owner := range all {
		l.launchCopy(ctx, f, owner)
	}
	return nil
}

// launchCopy launches f's copy into owner unless it exists and ended (a run
// that a crash left running runs again under its id, as prod's does).
func (l *Loop) launchCopy(ctx context.Context, f Firing, owner string) {
	origin := decodeOrigin(f.Origin)
	id := intoID(f.WorkID, owner)
	if f.WorkKind == WorkRun {
		if d, err := l.eng.RunDetail(ctx, id); err == nil && d.State.Final() {
			return
		}
		opt := engine.RunOptions{RunID: id, Reuse: true, Origin: origin}
		envs.RunInto(&opt, owner)
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			if _, err := l.eng.Run(ctx, f.Pipeline, partitions.AllKey, opt); err != nil && ctx.Err() == nil {
				l.log.Warn("triggers: run into an environment", "pipeline", f.Pipeline, "into", owner, "err", err)
			}
		}()
		return
	}
	// A copy that exists is the engine's to carry on: one a crash
	// interrupted is resumed by its own recovery.
	if _, err := l.eng.Backfill(ctx, id); err == nil {
		return
	}
	if _, _, err := l.eng.LaunchAs(ctx, id, engine.BackfillSpec{Pipeline: f.Pipeline, From: f.From, To: f.To,
		Reprocess: engine.ReprocessAll, Origin: origin, Into: owner, Where: f.Where, KeySets: f.KeySets}); err != nil {
		l.log.Warn("triggers: launch into an environment", "pipeline", f.Pipeline, "into", owner, "err", err)
	}
}

// resumeCopies launches the recorded copies that have not ended and whose
// environment still follows triggers (a discarded one gets none).
func (l *Loop) resumeCopies(ctx context.Context) error {
	if l.into == nil {
		return nil
	}
	cs, err := l.store.copies(ctx)
	if err != nil || len(cs) == 0 {
		return err
	}
	owners, err := l.into(ctx)
	if err != nil {
		return fmt.Errorf("list the environments that follow triggers: %w", err)
	}
	follow := map[string]bool{}
	for _, o := range owners {
		follow[o] = true
	}
	for _, c := range cs {
		if follow[c.Owner] {
			l.launchCopy(ctx, c.Firing, c.Owner)
		}
	}
	return nil
}
