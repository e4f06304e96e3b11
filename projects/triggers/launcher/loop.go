package launcher

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/triggers"
	"github.com/stratahq/strata/projects/warehouse"
)

// Defaults of Config.
const (
	DefaultQuiet   = 2 * time.Second
	DefaultMaxWait = time.Minute
)

// Config is what a Loop needs.
type Config struct {
	Engine    *engine.Engine
	Warehouse *warehouse.Warehouse
	Clock     Clock         // the wall clock when nil
	Logger    *slog.Logger  // slog.Default() when nil
	Quiet     time.Duration // event triggers wait this long after the last upstream change; DefaultQuiet when 0
	MaxWait   time.Duration // the longest sleep between steps; DefaultMaxWait when 0
	// Into lists the pin owners of the environments that asked to follow
	// the triggers (projects/envs): each firing's work is launched into
	// each of them too, after prod's (env_triggers.go). Nil: prod only.
	Into func(ctx context.Context) ([]string, error)
}

// Loop runs the triggers of every pipeline of the engine's project.
type Loop struct {
	eng    *engine.Engine
	store  *tickStore
	clock  Clock
	log    *slog.Logger
	quiet  time.Duration
	max    time.Duration
	wake   chan struct{}
	events *coalescer

	mu     sync.Mutex
	queues map[string]*queue // per "pipeline/trigger": its ticks, run one after another
	wg     sync.WaitGroup
	runCtx context.Context // the context of Run, for queued work
	into   func(ctx context.Context) ([]string, error)
	// lostCopies, in tests, stops a firing's copies after they were
	// recorded and before they launch: what a crash there leaves.
	lostCopies bool
}

// queue holds a trigger's recorded ticks waiting for the previous one to end.
type queue struct {
	pending []Firing
	busy    bool
}

// New creates the trigger tables if needed.
func New(ctx context.Context, cfg Config) (*Loop, error) {
	if cfg.Engine == nil || cfg.Warehouse == nil {
		return nil, errors.New("launcher: Engine and Warehouse are required")
	}
	st, err := openTickStore(ctx, cfg.Warehouse.DB())
	if err != nil {
		return nil, err
	}
	l := &Loop{eng: cfg.Engine, store: st, clock: cfg.Clock, log: cfg.Logger, quiet: cfg.Quiet, max: cfg.MaxWait,
		wake: make(chan struct{}, 1), queues: map[string]*queue{}, runCtx: ctx, into: cfg.Into}
	if l.clock == nil {
		l.clock = &RealClock{}
	}
	if l.log == nil {
		l.log = slog.Default()
	}
	if l.quiet <= 0 {
		l.quiet = DefaultQuiet
	}
	if l.max <= 0 {
		l.max = DefaultMaxWait
	}
	l.events = newCoalescer(l)
	return l, nil
}

// Clock is the loop's clock.
func (l *Loop) Clock() Clock { return l.clock }

// Wake makes the loop step now (after a pause, a resume or a reload).
func (l *Loop) Wake() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Run steps until ctx ends, then waits for the work it is following. Work
// still running is checkpointed by the engine's Shutdown and resumed, with
// the ticks queued behind it, on the next start.
func (l *Loop) Run(ctx context.Context) error {
	l.mu.Lock()
	l.runCtx = ctx
	l.mu.Unlock()
	sub := l.eng.Hub().Subscribe(1<<14, func(n engine.Notice) bool {
		return n.Kind == engine.NoticePublished || n.Kind == engine.NoticeProject
	})
	defer sub.Close()
	if err := l.Resume(ctx); err != nil {
		l.log.Error("triggers: carry on recorded ticks", "err", err)
	}
	if err := l.events.restore(ctx, l.clock.Now()); err != nil {
		l.log.Error("triggers: read upstream changes recorded before the restart", "err", err)
	}
	for {
		if err := l.Step(ctx); err != nil && ctx.Err() == nil {
			l.log.Error("triggers: step", "err", err)
		}
		l.events.flush(ctx, l.clock.Now(), func() { l.takeQueued(ctx, sub) })
		now := l.clock.Now()
		wait := l.nextWait(now)
		timer, wakeAt := l.clock.After(wait), now.Add(wait)
	wait:
		for {
			select {
			case <-ctx.Done():
				l.wg.Wait()
				return nil
			case <-timer:
				break wait
			case <-l.wake:
				break wait
			case n, ok := <-sub.C:
				if !ok {
					break wait
				}
				switch n.Kind {
				case engine.NoticeProject:
					break wait
				case engine.NoticePublished:
					now := l.clock.Now()
					l.events.add(ctx, n.Published, now)
					l.warnLagged(sub)
					// The first change of a batch is due a quiet period from now,
					// which may come long before the sleep ends (the next
					// schedule tick or MaxWait): sleep until then instead.
					if d, ok := l.events.due(now); ok && now.Add(d).Before(wakeAt) {
						d = max(d, time.Millisecond)
						timer, wakeAt = l.clock.After(d), now.Add(d)
					}
				}
			}
		}
	}
}

// takeQueued adds the publications waiting in sub to the event batches,
// without waiting for more. A project notice among them wakes the next
// sleep, as it would have.
func (l *Loop) takeQueued(ctx context.Context, sub *engine.Subscription) {
	for {
		select {
		case n, ok := <-sub.C:
			if !ok {
				return
			}
			switch n.Kind {
			case engine.NoticeProject:
				l.Wake()
			case engine.NoticePublished:
				l.events.add(ctx, n.Published, l.clock.Now())
				l.warnLagged(sub)
			}
		default:
			return
		}
	}
}

func (l *Loop) warnLagged(sub *engine.Subscription) {
	if sub.Lagged {
		l.log.Warn("triggers: missed publish notices (the loop fell behind); downstream partitions may need a stale backfill")
		sub.Lagged = false
	}
}

// nextWait is the time until the earliest schedule tick or event flush.
func (l *Loop) nextWait(now time.Time) time.Duration {
	wait := l.max
	proj := l.eng.Project()
	for _, id := range proj.PipelineIDs() {
		for _, t := range proj.Pipelines[id].Triggers {
			if t.Schedule == nil {
				continue
			}
			if next := t.Schedule.Next(now); !next.IsZero() && next.Sub(now) < wait {
				wait = next.Sub(now)
			}
		}
	}
	if d, ok := l.events.due(now); ok && d < wait {
		wait = d
	}
	return max(wait, time.Millisecond)
}

// Step records and launches the schedule ticks due at the clock's now.
func (l *Loop) Step(ctx context.Context) error {
	now := l.clock.Now()
	proj := l.eng.Project()
	paused, err := Paused(proj.Dir)
	if err != nil {
		return fmt.Errorf("read %s: %w", PauseFile, err)
	}
	anchors, err := l.store.anchors(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, id := range proj.PipelineIDs() {
		pl := proj.Pipelines[id]
		for _, t := range pl.Triggers {
			if t.Kind != project.TriggerSchedule || t.Schedule == nil {
				continue
			}
			key := pauseKey(pl.ID, t.ID)
			anchor, seen := anchors[key]
			if !seen {
				// Ticks count from the moment a trigger appears, not from 1970.
				errs = append(errs, l.store.record(ctx, Firing{Pipeline: pl.ID, Trigger: t.ID, Source: project.TriggerSchedule,
					Tick: now, RecordedAt: now, Action: ActionSeen}))
				continue
			}
			plan := triggers.Due(t.Schedule, anchor, now, t.CatchUp)
			if plan.Empty() {
				continue
			}
			_, isPaused := paused[key]
			fs := scheduleFirings(pl, t, plan, now, isPaused)
			if err := l.store.record(ctx, fs...); err != nil {
				errs = append(errs, err)
				continue
			}
			l.notify(pl.ID, fs)
			for _, f := range fs {
				if f.Action == ActionLaunched {
					l.enqueue(f)
				}
			}
		}
	}
	return errors.Join(errs...)
}

// scheduleFirings turns a plan into the rows to record.
func scheduleFirings(pl *project.Pipeline, t *project.Trigger, plan triggers.Plan, now time.Time, paused bool) []Firing {
	var fs []Firing
	base := Firing{Pipeline: pl.ID, Trigger: t.ID, Source: project.TriggerSchedule, RecordedAt: now}
	if plan.Skipped > 0 {
		f := base
		f.Action, f.Tick, f.Skipped, f.SkippedFirst, f.SkippedLast = ActionSkipped, plan.SkippedFirst, plan.Skipped, plan.SkippedFirst, plan.SkippedLast
		f.Detail = fmt.Sprintf("%d missed ticks from %s to %s skipped: catch_up.max is %d", plan.Skipped,
			plan.SkippedFirst.UTC().Format(time.RFC3339), plan.SkippedLast.UTC().Format(time.RFC3339), t.CatchUp)
		fs = append(fs, f)
	}
	spec, specErr := engine.SpecOf(pl.Partitions)
	for i, tick := range plan.Run {
		f := base
		f.Tick = tick
		if len(plan.Run) > 1 {
			f.Detail = fmt.Sprintf("catch-up %d of %d", i+1, len(plan.Run))
		}
		switch {
		case paused:
			f.Action, f.Detail = ActionSkipped, "paused"
			fs = append(fs, f)
			continue
		case len(pl.Problems) > 0:
			f.Action, f.Detail = ActionFailed, "the pipeline has problems: "+pl.Problems[0].String()
			fs = append(fs, f)
			continue
		case specErr != nil:
			f.Action, f.Detail = ActionFailed, specErr.Error()
			fs = append(fs, f)
			continue
		}
		from, to, err := t.Run.Window(spec, tick)
		if err != nil {
			f.Action, f.Detail = ActionFailed, err.Error()
			fs = append(fs, f)
			continue
		}
		f.Action, f.From, f.To = ActionLaunched, from, to
		f.WorkID, f.WorkKind = triggers.TickID(pl.ID, t.ID, tick), workKind(spec)
		f.Origin = encodeOrigin(&engine.Origin{Kind: engine.OriginTrigger, Trigger: t.ID, TriggerKind: t.Kind, Tick: tick.UTC(), Note: f.Detail})
		fs = append(fs, f)
	}
	return fs
}

func workKind(spec partitions.Spec) string {
	if spec.Interval == partitions.None {
		return WorkRun
	}
	return WorkBackfill
}

func encodeOrigin(o *engine.Origin) string {
	b, _ := json.Marshal(o)
	return string(b)
}

func decodeOrigin(s string) *engine.Origin {
	if s == "" {
		return nil
	}
	var o engine.Origin
	if json.Unmarshal([]byte(s), &o) != nil {
		return nil
	}
	return &o
}

// Resume queues the recorded ticks whose work has not ended: launched
// before a crash (the engine resumes those backfills) or recorded and never
// launched. LaunchAs under their ids never starts a second copy.
func (l *Loop) Resume(ctx context.Context) error {
	fs, err := l.store.unfinished(ctx)
	if err != nil {
		return err
	}
	for _, f := range fs {
		l.enqueue(f)
	}
	// Copies into environments whose prod work ended before a crash are
	// not among those: they are carried on from their own record.
	return l.resumeCopies(ctx)
}

// enqueue adds a launched firing to its trigger's queue and starts the
// queue's worker if it is idle.
func (l *Loop) enqueue(f Firing) {
	key := pauseKey(f.Pipeline, f.Trigger)
	l.mu.Lock()
	defer l.mu.Unlock()
	q := l.queues[key]
	if q == nil {
		q = &queue{}
		l.queues[key] = q
	}
	for _, p := range q.pending {
		if p.WorkID == f.WorkID {
			return
		}
	}
	q.pending = append(q.pending, f)
	if q.busy {
		return
	}
	q.busy = true
	ctx := l.runCtx
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		for {
			l.mu.Lock()
			if len(q.pending) == 0 || ctx.Err() != nil {
				q.busy = false
				l.mu.Unlock()
				return
			}
			next := q.pending[0]
			q.pending = q.pending[1:]
			l.mu.Unlock()
			if l.skipPaused(ctx, next) {
				continue
			}
			if err := l.launch(ctx, next, true); err != nil && ctx.Err() == nil {
				l.log.Warn("triggers: launch", "pipeline", next.Pipeline, "trigger", next.Trigger, "work", next.WorkID, "err", err)
				now := l.clock.Now()
				_ = l.store.record(context.Background(), Firing{Pipeline: next.Pipeline, Trigger: next.Trigger, Source: next.Source,
					Tick: next.Tick, RecordedAt: now, Action: ActionFailed, WorkID: next.WorkID, WorkKind: next.WorkKind,
					From: next.From, To: next.To, Where: next.Where, KeySets: next.KeySets, Detail: err.Error()})
			}
		}
	}()
}

// skipPaused records a queued firing as skipped when a pause covers it (the
// trigger is paused, or was paused after the firing was recorded, even if it
// has been resumed since), unless its work exists already (launched before a
// restart: the engine carries that on, and a pause stops new work only).
// A pause is there to stop a flood of catch-up ticks; before, the ticks
// already queued launched anyway, and again after every restart, or after a
// quick resume.
func (l *Loop) skipPaused(ctx context.Context, f Firing) bool {
	if f.Source != project.TriggerSchedule && f.Source != project.TriggerEvent {
		return false // an API firing was asked for explicitly
	}
	all, err := pauses(l.eng.Project().Dir)
	if err != nil {
		return false
	}
	if p, ok := all[pauseKey(f.Pipeline, f.Trigger)]; !ok || !p.Covers(f.RecordedAt) {
		return false
	}
	if f.WorkKind == WorkRun {
		if _, err := l.eng.RunDetail(ctx, f.WorkID); err == nil {
			return false
		}
	} else if _, err := l.eng.Backfill(ctx, f.WorkID); err == nil {
		return false
	}
	s := f
	s.Action, s.RecordedAt, s.Detail = ActionSkipped, l.clock.Now(), "paused before it launched"
	if err := l.store.record(context.Background(), s); err != nil {
		l.log.Warn("triggers: record a skipped tick", "pipeline", f.Pipeline, "trigger", f.Trigger, "work", f.WorkID, "err", err)
		return false
	}
	l.notify(f.Pipeline, []Firing{s})
	return true
}

// launch starts a firing's work through the engine and, with wait, follows
// it to its end.
func (l *Loop) launch(ctx context.Context, f Firing, wait bool) error {
	// The environments that asked get a copy (env_triggers.go), recorded
	// before prod's work launches and never waited for.
	if err := l.launchInto(ctx, f); err != nil {
		l.log.Warn("triggers: copies into environments", "pipeline", f.Pipeline, "work", f.WorkID, "err", err)
	}
	origin := decodeOrigin(f.Origin)
	if f.WorkKind == WorkRun {
		if d, err := l.eng.RunDetail(ctx, f.WorkID); err == nil && d.State.Final() {
			return nil
		}
		run := func() error {
			_, err := l.eng.Run(ctx, f.Pipeline, partitions.AllKey, engine.RunOptions{RunID: f.WorkID, Reuse: true, Origin: origin})
			return err
		}
		if wait {
			return run()
		}
		l.wg.Add(1)
		go func() { defer l.wg.Done(); _ = run() }()
		return nil
	}
	st, _, err := l.eng.LaunchAs(ctx, f.WorkID, engine.BackfillSpec{Pipeline: f.Pipeline, From: f.From, To: f.To,
		Reprocess: engine.ReprocessAll, Origin: origin, Where: f.Where, KeySets: f.KeySets})
	if err != nil {
		return err
	}
	if wait {
		_, err = l.eng.Wait(ctx, st.ID)
	}
	return err
}

// notify tells websocket subscribers what a trigger recorded.
func (l *Loop) notify(pipeline string, fs []Firing) {
	for i := range fs {
		if fs[i].Action == ActionSeen {
			continue
		}
		f := fs[i]
		l.eng.Hub().Publish(engine.Notice{Kind: NoticeFiring, Data: &f})
	}
}

// NoticeFiring is the hub notice of a recorded firing (Data is a *Firing).
const NoticeFiring = "trigger"
