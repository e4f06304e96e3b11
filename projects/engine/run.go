package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/tracing"
	"github.com/stratahq/strata/projects/warehouse"
)

// RunOptions tune one partition run.
type RunOptions struct {
	RunID      string // deterministic id; generated when empty
	BackfillID string
	// Stage writes new versions without making them current, for atomic
	// backfills that promote everything at the end.
	Stage bool
	// FineOnly runs only the blocks partitioned like the pipeline; a
	// backfill runs each coarser partition once, after its fine ones.
	FineOnly bool
	// Interval, when set, makes key a partition of this interval and runs
	// only the blocks partitioned by it (a backfill's weekly rollups).
	Interval string
	// Reuse lets a retried or resumed run (same RunID) take the outputs of
	// dynamic children that succeeded in an earlier attempt instead of
	// running them again.
	Reuse bool
	// PreferRun makes upstream reads from the warehouse prefer versions
	// written by runs whose id starts with it, current or not (staged data
	// of an atomic backfill).
	PreferRun string
	// PreferPinned makes upstream reads prefer the newest version this
	// owner pinned in each partition over the current one (the versions
	// an environment holds: projects/envs), after PreferRun's.
	PreferPinned string
	// Snapshot is the pipeline version to run (a backfill's); empty takes
	// a snapshot of the files as they are now.
	Snapshot string
	// BasedOn makes the publish a compare-and-set: product -> the current
	// version of this partition the run was planned against (0: none). If
	// another version became current meanwhile, nothing is made current,
	// the outputs are kept staged and the run ends in StateConflict. Staged
	// outputs (Stage) record it for the promote's check. Products it does
	// not name publish unchecked.
	BasedOn map[string]int
	// Pin keeps the versions this run writes from retention on behalf of
	// this owner (a backfill staged for review) until it promotes or
	// discards them.
	Pin string
	// Origin is what launched the run (a trigger), recorded on its first event.
	Origin *Origin
	// Actor is who launched it (a user's name), recorded with Origin.
	Actor string
	// Engine runs the Go blocks interpreted ("interp") or compiled
	// ("compiled"); empty: compiled when a Go toolchain is found.
	Engine string
	// Blocks, when not empty, are the only blocks the run computes (a
	// backfill's subset); the others' outputs are read from the warehouse.
	Blocks []string

	// code is what a backfill prepared once for all its runs: the sources
	// read at launch and the executor built from them.
	code *preparedCode
	// group, for a backfill's runs, commits their publishes several to a
	// transaction (backfill_group_commit.go); nil: each commits alone.
	// handoff gives the run's backfill slot back once its publish is
	// handed over; started runs once its running event is durable;
	// settled once its last publish committed, with the run's final state
	// (the backfill's book follows the log with them).
	group *groupSeat
	// batches, for a backfill's runs, are the windows its batch SQL
	// blocks computed (sql_batch.go); nil: a window is one partition.
	batches *sqlBatches
	handoff func()
	started func()
	settled func(State)
}

// RunResult is what a run did.
type RunResult struct {
	RunID      string                `json:"run_id"`
	Pipeline   string                `json:"pipeline"`
	Snapshot   string                `json:"snapshot"` // the pipeline version that ran
	Partition  string                `json:"partition"`
	State      State                 `json:"state"`
	Error      string                `json:"error,omitempty"`
	Engine     string                `json:"engine"` // interp or compiled: how the Go blocks ran
	EngineNote string                `json:"engine_note,omitempty"`
	Blocks     []*BlockOutcome       `json:"blocks"`
	Versions   []warehouse.Version   `json:"versions,omitempty"`
	Conflicts  []warehouse.Conflict  `json:"conflicts,omitempty"` // newer work that kept this run's versions from becoming current
	Started    time.Time             `json:"started_at"`
	Duration   time.Duration         `json:"-"`
	DurationMS float64               `json:"duration_ms"`
	outputs    map[string]*sdk.Table // by block id, for tests and previews
}

// Output returns a block's output table of this run (nil if none).
func (r *RunResult) Output(block string) *sdk.Table { return r.outputs[block] }

// Run computes one partition of a pipeline and publishes it.
func (e *Engine) Run(ctx context.Context, pipelineID, key string, opt RunOptions) (*RunResult, error) {
	var pin *pinned
	var err error
	if opt.Snapshot != "" {
		pin, err = e.pinnedVersion(opt.Snapshot, pipelineID)
	} else {
		pin, err = e.pin(pipelineID)
	}
	if err != nil {
		return nil, err
	}
	defer e.hold(pin.hash)()
	pl := pin.pl
	spec, err := SpecOf(pl.Partitions)
	if err != nil {
		return nil, err
	}
	if opt.Interval != "" && opt.Interval != string(spec.Interval) {
		if spec, err = coarseSpec(pl, opt.Interval); err != nil {
			return nil, err
		}
	}
	p, err := spec.Parse(key)
	if err != nil {
		return nil, fmt.Errorf("pipeline %s: %w", pl.ID, err)
	}
	if err := checkStarted(pl.ID, "partition", spec, p, e.now()); err != nil {
		return nil, err
	}
	code := opt.code
	if code == nil || code.hash != pin.hash {
		if code, err = e.prepare(ctx, pin, opt.Engine); err != nil {
			return nil, err
		}
		defer code.release()
	}
	if opt.RunID == "" {
		opt.RunID = "run_" + pl.ID + "_" + p.Key + "_" + strconv.FormatInt(e.now().UnixNano(), 36)
	}
	ctx, untrack := e.track(ctx, opt.RunID)
	defer untrack()
	// Every log line written with this context names the run (and its
	// backfill, when a backfill started it) beside its trace.
	ctx = tracing.WithRun(ctx, opt.RunID)
	if tracing.BackfillID(ctx) == "" {
		ctx = tracing.WithBackfill(ctx, opt.BackfillID)
	}
	// One span per run: in a backfill, one per partition step, children of
	// the backfill's span.
	ctx, span := tracing.Start(ctx, "run",
		attribute.String("strata.pipeline", pl.ID), attribute.String("strata.partition", p.Key),
		attribute.String("strata.run", opt.RunID), attribute.String("strata.backfill", opt.BackfillID))
	r := &runner{e: e, pin: pin, pl: pl, spec: spec, part: p, opt: opt, srcs: pin.srcs, exec: code.exec,
		readVersions: map[string]map[string]int{},
		res: &RunResult{RunID: opt.RunID, Pipeline: pl.ID, Snapshot: pin.hash, Partition: p.Key, Started: e.now(),
			Engine: code.engine, EngineNote: code.note, outputs: map[string]*sdk.Table{}}}
	res, err := r.run(ctx)
	if err == nil {
		span.SetAttributes(attribute.String("strata.state", string(res.State)))
		if res.State == StateFailed {
			span.SetStatus(codes.Error, "run failed") // its error text stays in the run record
			// With the run, backfill and trace ids (tracing.LogHandler): from
			// the log line to the run record and the trace.
			slog.WarnContext(ctx, "run failed", "pipeline", res.Pipeline, "partition", res.Partition)
		}
	}
	tracing.End(span, err, e.secrets.Mask)
	return res, err
}

// runner executes one run.
type runner struct {
	e    *Engine
	pin  *pinned // the pipeline version this run computes
	pl   *project.Pipeline
	spec partitions.Spec
	part partitions.Partition
	opt  RunOptions
	srcs map[string]blockSource
	exec Executor
	res  *RunResult

	mu           sync.Mutex
	readVersions map[string]map[string]int // product -> partition -> version read from the warehouse
	// productReads are the versions each block read with ctx.Product, by
	// block and partition key: part of what its version was computed from.
	productReads map[string]map[string]map[string]int // block\x00partition -> product -> partition -> version
	reused       map[childKey]*sdk.Table              // outputs of children that succeeded in an earlier attempt
	// final is the run's final event as its last publish wrote it (see
	// foldFinal); nil until that publish committed.
	final *Event
	// states are the block states to publish and the ones their runs
	// started from, by block and partition (block_state.go).
	states map[string][2]map[string]string
	// replay, when set: the runner computes for a replay (replay_run.go),
	// which writes nothing (no event, no publish, no refresh, no export)
	// and reads ctx.Product windows and ctx.State as the stored run did.
	replay *replaySession
	// editor, when set: the runner prepares an editor run (interactive.go),
	// which reads as a run does but refreshes nothing under a max_age and
	// records nothing.
	editor bool
	// written are the outputs workers wrote as files, by block
	// (output_sink.go): published by registering the file.
	written map[string]*warehouse.WrittenFile
}

type childKey struct{ block, child string }

// group is the blocks that compute the same partition and publish together.
type group struct {
	part   partitions.Partition
	spec   partitions.Spec
	blocks []*project.Block
}

func (r *runner) event(ev Event) Event {
	ev.RunID, ev.BackfillID, ev.Pipeline = r.opt.RunID, r.opt.BackfillID, r.pl.ID
	if ev.Child != "" {
		ev.Snapshot = r.pin.hash
	}
	if ev.Partition == "" {
		ev.Partition = r.part.Key
	}
	return ev
}

// emit records a run-level state change and asks for a commit: the
// channel says when it is durable.
func (r *runner) emit(ev Event) <-chan error {
	ev = r.event(ev)
	r.e.hub.Publish(Notice{Kind: "state", Event: &ev})
	return r.e.store.Append(ev)
}

// emitRunning records the run's running event and waits until it is
// durable; a backfill's run waits for its group's next transaction.
func (r *runner) emitRunning(ctx context.Context, ev Event) error {
	var err error
	if g := r.opt.group; g == nil || !r.e.store.riding() {
		err = <-r.emit(ev)
	} else {
		ev = r.event(ev)
		r.e.hub.Publish(Notice{Kind: "state", Event: &ev})
		err = g.start(ctx, ev)
	}
	if err == nil && r.opt.started != nil {
		r.opt.started()
	}
	return err
}

// settle tells the backfill the run's final state once its last publish
// committed it (foldFinal), before the group's other runs hear of it.
func (r *runner) settle(err error) {
	if r.opt.settled == nil || (err != nil && warehouse.AsConflict(err) == nil) {
		return
	}
	r.mu.Lock()
	f := r.final
	r.mu.Unlock()
	if f != nil {
		r.opt.settled(f.State)
	}
}

// emitBlock records a block's (or a child's) state change without waiting
// for it: the run's own running event is durable before any block starts,
// and its final event, which waits, commits every block event queued before
// it. A kill in between loses block events of a run that is then run again,
// which is what a resume does with a run left running anyway.
func (r *runner) emitBlock(ev Event) {
	ev = r.event(ev)
	r.e.hub.Publish(Notice{Kind: "state", Event: &ev})
	r.e.store.Queue(ev)
}

func (r *runner) run(ctx context.Context) (*RunResult, error) {
	start := time.Now()
	if err := r.emitRunning(ctx, Event{State: StateRunning, Engine: r.res.Engine, Origin: withTrace(withActor(r.opt.Origin, r.opt.Actor), ctx).encode()}); err != nil {
		return nil, err
	}
	if r.opt.Reuse {
		var err error
		if r.reused, err = r.e.childOutputs(ctx, r.opt.RunID, r.pin.hash); err != nil {
			return nil, err
		}
	}
	groups, err := r.groups()
	if err != nil {
		return nil, err
	}
	if r.opt.FineOnly || r.opt.Interval != "" {
		groups = groups[:1] // the first group is the one partitioned like r.spec
	}
	groups = subsetGroups(groups, r.opt.Blocks)
	r.res.State = StateSucceeded
	failed := false
	for i, g := range groups {
		if failed {
			for _, b := range g.blocks {
				o := &BlockOutcome{Block: b.ID, Partition: g.part.Key, State: StateSkipped, Error: "skipped: an earlier part of the run failed"}
				r.res.Blocks = append(r.res.Blocks, o)
				r.emitBlock(Event{Partition: g.part.Key, Block: b.ID, State: StateSkipped, Error: o.Error})
			}
			continue
		}
		// A backfill knows which of its runs ran before (Reuse: a resume or
		// retry under the same id); only those can have published already,
		// so a fresh one skips the lookup, a scan of the catalog that grows
		// with every version kept. Other callers' ids are always checked.
		if r.opt.BackfillID == "" || r.opt.Reuse {
			done, current, err := r.e.publishedByRun(ctx, r.opt.RunID, r.pl, g.blocks)
			switch {
			case err != nil:
				return nil, err
			case done && !current && !r.opt.Stage && r.opt.BasedOn != nil:
				// Its compare-and-set publish found newer work before the
				// restart: its versions were kept, not made current.
				prod := ProductName(r.pl, g.blocks[0])
				r.res.Conflicts = append(r.res.Conflicts, warehouse.Conflict{Partition: g.part.Key, Product: prod, BasedOn: r.opt.BasedOn[prod]})
				continue
			case done:
				// A resumed run whose publish committed before the crash: never twice.
				for _, b := range g.blocks {
					r.res.Blocks = append(r.res.Blocks, &BlockOutcome{Block: b.ID, Partition: g.part.Key, State: StateSucceeded, Log: "already published by this run before a restart"})
				}
				continue
			}
		}
		outcomes := r.runGroup(ctx, g)
		r.res.Blocks = append(r.res.Blocks, outcomes...)
		for _, o := range outcomes {
			if o.State != StateSucceeded {
				failed = true
			}
		}
		if failed {
			continue
		}
		var then warehouse.Then
		if i == len(groups)-1 && r.e.store.riding() {
			then = r.foldFinal(start)
		}
		versions, err := r.publish(ctx, g, outcomes, then)
		if err != nil && warehouse.AsConflict(err) == nil {
			r.mu.Lock()
			r.final = nil // written in a transaction that did not commit
			r.mu.Unlock()
		}
		if cs := warehouse.AsConflict(err); cs != nil {
			// Not made current, kept: a user decides (promote anyway or
			// keep the newer versions).
			r.res.Versions = append(r.res.Versions, versions...)
			r.res.Conflicts = append(r.res.Conflicts, cs...)
			continue
		}
		if err != nil {
			failed = true
			r.res.Error = "publish: " + err.Error()
			continue
		}
		r.res.Versions = append(r.res.Versions, versions...)
	}
	if len(r.res.Conflicts) > 0 && !failed {
		r.res.State = StateConflict
		r.res.Error = (&warehouse.ConflictError{Conflicts: r.res.Conflicts}).Error()
	}
	if failed {
		r.res.State = StateFailed
		if ctx.Err() != nil {
			r.res.State = StateCancelled
		}
		if r.res.Error == "" {
			r.res.Error = firstFailure(r.res.Blocks)
		}
		if errors.Is(context.Cause(ctx), ErrRunCancelled) {
			r.res.Error = "cancelled by a user (" + r.res.Error + ")"
		}
	}
	r.mu.Lock()
	folded := r.final
	r.mu.Unlock()
	if folded != nil && !failed {
		// The last publish wrote the final state with its versions: it is
		// durable already, and is what the log says.
		r.res.State, r.res.Error = folded.State, folded.Error
		r.res.DurationMS = folded.DurationMS
		r.res.Duration = time.Duration(folded.DurationMS * float64(time.Millisecond))
		r.e.hub.Publish(Notice{Kind: "state", Event: folded})
		return r.res, nil
	}
	r.res.Duration = time.Since(start)
	r.res.DurationMS = ms(r.res.Duration)
	final := r.emit(Event{State: r.res.State, Error: r.res.Error, DurationMS: ms(r.res.Duration), Engine: r.res.Engine})
	if err := <-final; err != nil {
		return r.res, err
	}
	return r.res, nil
}

func firstFailure(bs []*BlockOutcome) string {
	for _, b := range bs {
		if b.State == StateFailed || b.State == StateCancelled {
			name := b.Block
			if b.Child != "" {
				name += "[" + b.Child + "]"
			}
			return name + ": " + b.Error
		}
	}
	return ""
}

// groups splits the pipeline by the partition each block computes: first the
// blocks partitioned like the pipeline, then each coarser partition.
func (r *runner) groups() ([]*group, error) {
	byKey := map[string]*group{}
	var order []*group
	for _, b := range r.pl.Order() {
		bs, err := SpecOf(b.Partitions)
		if err != nil {
			return nil, fmt.Errorf("block %s: %w", b.ID, err)
		}
		bp := r.part
		if r.opt.Interval != "" && string(bs.Interval) != r.opt.Interval {
			continue
		}
		if bs.Interval != r.spec.Interval {
			over := r.spec.Containing(r.part, bs)
			if len(over) != 1 {
				return nil, fmt.Errorf("block %s is partitioned by %s, finer than its pipeline (%s): give it the pipeline's interval or a coarser one", b.ID, bs.Interval, r.spec.Interval)
			}
			bp = over[0]
		}
		gk := string(bs.Interval) + "/" + bp.Key
		g := byKey[gk]
		if g == nil {
			g = &group{part: bp, spec: bs}
			byKey[gk] = g
			order = append(order, g)
		}
		g.blocks = append(g.blocks, b)
	}
	return order, nil
}

// coarseSpec is the partitioning of the pipeline's blocks of one interval.
func coarseSpec(pl *project.Pipeline, interval string) (partitions.Spec, error) {
	for _, b := range pl.Blocks {
		if b.Partitions.Interval == interval {
			return SpecOf(b.Partitions)
		}
	}
	return partitions.Spec{}, fmt.Errorf("pipeline %s has no block partitioned by %s", pl.ID, interval)
}

// runGroup runs a group's blocks as soon as their upstreams are done.
func (r *runner) runGroup(ctx context.Context, g *group) []*BlockOutcome {
	inGroup := map[string]bool{}
	for _, b := range g.blocks {
		inGroup[b.ID] = true
	}
	nodes := map[string]*node{}
	for _, b := range g.blocks {
		nodes[b.ID] = &node{b: b, done: make(chan struct{})}
	}
	var wg sync.WaitGroup
	for _, b := range g.blocks {
		n := nodes[b.ID]
		if b.FanOut != "" && nodes[b.FanOut] != nil {
			continue // run by its dynamic parent's fan-out
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(n.done)
			if b.Dynamic {
				// Its fan-out region is run (or skipped) through it: however
				// it ends, the region is done too, or a reduce would wait forever.
				defer closeRegion(g, b, nodes)
			}
			var ups []*node
			for _, u := range b.Upstream {
				if un := nodes[u]; un != nil {
					<-un.done
					ups = append(ups, un)
				}
			}
			if reason := skipReason(ups); reason != "" {
				n.outcome = &BlockOutcome{Block: b.ID, Partition: g.part.Key, State: StateSkipped, Error: reason}
				r.emitBlock(Event{Partition: g.part.Key, Block: b.ID, State: StateSkipped, Error: reason})
				return
			}
			if b.Dynamic {
				r.runDynamic(ctx, g, n, nodes)
				return
			}
			n.outcome, n.out = r.execute(ctx, g, b, nil, localOutputs(nodes))
		}()
	}
	wg.Wait()
	var out []*BlockOutcome
	for _, b := range g.blocks {
		n := nodes[b.ID]
		if n.outcome == nil { // a fan-out block whose parent never ran
			n.outcome = &BlockOutcome{Block: b.ID, Partition: g.part.Key, State: StateSkipped, Error: "skipped: its dynamic parent did not succeed"}
		}
		out = append(out, n.outcome)
		out = append(out, n.children...)
		if n.out != nil {
			r.mu.Lock()
			r.res.outputs[b.ID] = n.out
			r.mu.Unlock()
		}
	}
	return out
}

// closeRegion marks the blocks that run once per row of dynamic block d done.
func closeRegion(g *group, d *project.Block, nodes map[string]*node) {
	for _, b := range g.blocks {
		if b.FanOut == d.ID {
			close(nodes[b.ID].done)
		}
	}
}

// localOutputs finds an upstream's output among the group's finished nodes;
// nil means "not computed in this group: read it from the warehouse".
func localOutputs(nodes map[string]*node) func(string) *sdk.Table {
	return func(u string) *sdk.Table {
		if n := nodes[u]; n != nil {
			return n.out
		}
		return nil
	}
}

// node is one block's place in a running group.
type node struct {
	b        *project.Block
	done     chan struct{}
	outcome  *BlockOutcome
	children []*BlockOutcome
	out      *sdk.Table
}

func skipReason(ups []*node) string {
	for _, u := range ups {
		if u.outcome == nil || u.outcome.State != StateSucceeded {
			return "skipped: upstream " + u.b.ID + " did not succeed"
		}
	}
	return ""
}

// publish writes the group's outputs in one transaction (or stages them);
// then, when set, runs in that transaction (foldFinal).
func (r *runner) publish(ctx context.Context, g *group, outcomes []*BlockOutcome, then warehouse.Then) ([]warehouse.Version, error) {
	var outs []warehouse.Output
	for _, b := range g.blocks {
		t, file := r.res.outputs[b.ID], r.writtenOf(b.ID)
		if t == nil && file == nil {
			continue // Export blocks publish nothing
		}
		if file != nil {
			t = nil
		}
		outs = append(outs, warehouse.Output{
			Product: ProductName(r.pl, b), Partition: g.part.Key, PartitionStart: g.part.Start, PartitionEnd: g.part.End,
			Table: t, File: file, RunID: r.opt.RunID, CodeHash: r.srcs[b.ID].hash, Upstream: r.lineage(g, b), Inputs: inputProducts(r.pl, b), Snapshot: r.pin.hash, Pin: r.opt.Pin,
			// What a backfill stages or a conflict keeps aside waits for its
			// promote or resolve, however often the partition is rewritten.
			Hold: r.opt.BackfillID,
			// A backfill's end applies it, for every partition at once.
			LateRetention: r.opt.BackfillID != "",
			// The warehouse records it as the owner of a product it
			// publishes first, and refuses it where another pipeline is.
			Pipeline: r.pl.ID,
		})
		if r.opt.Stage && r.opt.Pin != "" && r.opt.Pin == r.opt.PreferPinned {
			// A run into an environment (it stages for the owner it reads
			// through): rows equal to what the environment reads already
			// are not staged again (warehouse/version_identical.go).
			outs[len(outs)-1].ReuseFor = r.opt.Pin
		}
		outs[len(outs)-1].State, outs[len(outs)-1].StartState = r.blockState(b.ID, g.part.Key)
		if v, ok := r.opt.BasedOn[outs[len(outs)-1].Product]; ok {
			outs[len(outs)-1].BasedOn, outs[len(outs)-1].IfCurrent = v, true
		}
	}
	if len(outs) == 0 {
		return nil, nil
	}
	ctx, span := tracing.Start(ctx, "publish", attribute.Int("strata.outputs", len(outs)), attribute.Bool("strata.staged", r.opt.Stage))
	vs, err := r.publishOutputs(ctx, outs, then)
	tracing.End(span, err, r.e.secrets.Mask)
	return vs, err
}

// publishOutputs stages or publishes outs in one warehouse transaction
// (or the group commit's, when the run rides one).
func (r *runner) publishOutputs(ctx context.Context, outs []warehouse.Output, then warehouse.Then) ([]warehouse.Version, error) {
	var vs []warehouse.Version
	var err error
	switch {
	case r.opt.group != nil && r.e.store.riding():
		vs, err = r.opt.group.publish(ctx, outs, r.opt.Stage, then, r.settle, r.opt.handoff)
	case r.opt.Stage:
		vs, err = r.e.wh.StageThen(ctx, outs, then)
	default:
		vs, err = r.e.wh.PublishThen(ctx, outs, then)
	}
	if r.opt.Stage {
		return vs, err
	}
	if err == nil {
		refs := make([]warehouse.VersionRef, len(vs))
		for i, v := range vs {
			refs[i] = v.Ref()
		}
		r.e.published(r.pl.ID, r.opt.RunID, r.opt.BackfillID, refs)
	}
	return vs, err
}

// foldFinal is the Then of a run's last publish: the run ends with it
// (nothing failed before, or it would not publish), so its final event,
// succeeded or conflict, is written in the publish's own transaction
// instead of one of its own after it. A kill can then never leave a
// publish committed without its run's final state, and the run waits for
// one commit, not two. The event is numbered in the transaction, after
// every block event of the run, which that same transaction commits too.
func (r *runner) foldFinal(start time.Time) warehouse.Then {
	return func(_ []warehouse.Version, conflict *warehouse.ConflictError) any {
		ev := r.event(Event{State: StateSucceeded, DurationMS: ms(time.Since(start)), Engine: r.res.Engine})
		cs := r.res.Conflicts
		if conflict != nil {
			cs = append(slices.Clone(cs), conflict.Conflicts...)
		}
		if len(cs) > 0 {
			ev.State, ev.Error = StateConflict, (&warehouse.ConflictError{Conflicts: cs}).Error()
		}
		evs := r.e.store.number([]Event{ev})
		r.mu.Lock()
		r.final = &evs[0]
		r.mu.Unlock()
		return rideEvents(evs)
	}
}

// lineage records what a block read: upstream product -> partition ->
// version. Version 0 means "written by this same run" (same publish).
func (r *runner) lineage(g *group, b *project.Block) map[string]map[string]int {
	out := map[string]map[string]int{}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, u := range b.Upstream {
		ub := r.pl.Block(u)
		name := ProductName(r.pl, ub)
		if read, ok := r.readVersions[name]; ok {
			out[name] = maps.Clone(read)
			continue
		}
		out[name] = map[string]int{g.part.Key: 0}
	}
	// What the block (every child of it) read with ctx.Product counts as
	// what it read from its upstreams does: a rewrite of it makes the
	// version stale. The inputs (inputProducts) say which are upstreams.
	for prod, parts := range r.productReads[b.ID+"\x00"+g.part.Key] {
		if out[prod] == nil {
			out[prod] = map[string]int{}
		}
		maps.Copy(out[prod], parts)
	}
	return out
}

// recordProductRead notes the versions a ctx.Product call of block (for
// the partition key) read.
func (r *runner) recordProductRead(block, key string, read []warehouse.VersionRef) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.productReads == nil {
		r.productReads = map[string]map[string]map[string]int{}
	}
	k := block + "\x00" + key
	if r.productReads[k] == nil {
		r.productReads[k] = map[string]map[string]int{}
	}
	for _, v := range read {
		if r.productReads[k][v.Product] == nil {
			r.productReads[k][v.Product] = map[string]int{}
		}
		r.productReads[k][v.Product][v.Partition] = v.Version
	}
}

// inputProducts lists the products block b reads, in the order it receives
// them (a Go Transform's parameters): recorded with each version, since
// swapping two upstreams changes no code hash and no product it reads.
func inputProducts(pl *project.Pipeline, b *project.Block) []string {
	out := make([]string, 0, len(b.Upstream))
	for _, u := range b.Upstream {
		if ub := pl.Block(u); ub != nil {
			out = append(out, ProductName(pl, ub))
		}
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
