package launcher

import (
	"context"
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
// beside prod's work and never holds the trigger's queue. It is not
// recorded in the tick store: after a crash between prod's launch and the
// copy's, the copy of that one firing is not made.

// intoID is the deterministic id of a firing's copy for owner.
func intoID(workID, owner string) string {
	return workID + "_" + strings.ReplaceAll(owner, ":", "_")
}

// launchInto launches f's work into every environment that asked.
func (l *Loop) launchInto(ctx context.Context, f Firing) {
	if l.into == nil {
		return
	}
	owners, err := l.into(ctx)
	if err != nil {
		l.log.Warn("triggers: list the environments that follow triggers", "err", err)
		return
	}
	origin := decodeOrigin(f.Origin)
	for _, owner := range owners {
		id := intoID(f.WorkID, owner)
		if f.WorkKind == WorkRun {
			if _, err := l.eng.RunDetail(ctx, id); err == nil {
				continue
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
			continue
		}
		_, _, err := l.eng.LaunchAs(ctx, id, engine.BackfillSpec{Pipeline: f.Pipeline, From: f.From, To: f.To,
			Reprocess: engine.ReprocessAll, Origin: origin, Into: owner, Where: f.Where, KeySets: f.KeySets})
		if err != nil {
			l.log.Warn("triggers: launch into an environment", "pipeline", f.Pipeline, "into", owner, "err", err)
		}
	}
}
