package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"

	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/tracing"
	"github.com/stratahq/strata/projects/warehouse"
)

// backfillRun is a backfill executing in this process. A backfill is a
// fan-out whose items are partitions: a window of Concurrency partitions in
// flight (each a run on the shared kernel pool, whose size is the global
// cap), started oldest first, at most RatePerMin a minute, pausable.
type backfillRun struct {
	e  *Engine
	id string
	// group is this pass's group commit, once it runs: its runs in
	// flight count as running in progress (a run waiting for its running
	// event or its publish to commit is not in the log yet).
	group  atomic.Pointer[groupCommit]
	t      *target
	ctx    context.Context
	cancel context.CancelFunc
	retry  bool // re-run what did not succeed (see decide in run)
	// only limits a retry to these slots (run ids): a group of failures
	// retried together; every other slot keeps its state.
	only  map[string]bool
	start time.Time

	win *window // the partitions in flight
	// instance names this execution of the backfill, for control requests
	// from other processes (control_file.go).
	instance controlInstance

	// book is the latest state of each partition as this run writes it to
	// the log: the counts it reports (backfill_attempt.go).
	book            *slotBook
	bookErr         error // reading the book failed: the run ends with it
	finishes        *rateWindow
	cancelledByUser atomic.Bool
	engine          atomic.Value // string: interp or compiled
	done            chan struct{}
}

// Launch records a backfill and starts it in the background.
//
// The backfill takes a snapshot of the pipeline's files first (its pipeline
// version) and runs that snapshot to the end: edits on disk meanwhile apply
// to later runs, not to this backfill.
func (e *Engine) Launch(ctx context.Context, spec BackfillSpec) (*BackfillStatus, error) {
	return e.launch(ctx, newBackfillID(e.now()), spec, !spec.AllowOverlap)
}

// launch records and starts a backfill; with refuseOverlap, not while
// another one of the pipeline runs over part of its range (backfill_overlap.go).
func (e *Engine) launch(ctx context.Context, id string, spec BackfillSpec, refuseOverlap bool) (*BackfillStatus, error) {
	pin, err := e.pin(spec.Pipeline)
	if err != nil {
		return nil, err
	}
	t, err := e.target(ctx, spec, pin.pl)
	if err != nil {
		return nil, err
	}
	t.pin = pin
	if err := checkCompiles(pin); err != nil {
		return nil, err
	}
	if refuseOverlap {
		e.launchMu.Lock()
		defer e.launchMu.Unlock()
		if oe := e.overlapping(t); oe != nil {
			return nil, oe
		}
	}
	raw, _ := json.Marshal(t.spec)
	if err := e.wh.Healthy(); err != nil {
		return nil, fmt.Errorf("record backfill: %w", err)
	}
	// The plan is made now and kept: every later pass runs it (see
	// backfill_launchplan.go), written by DuckDB as rows where it can
	// decide every cell (backfill_plan_rows.go), else made cell by cell.
	rows, paged, err := e.planRowsQuery(ctx, t, pin.proj.Dir, id)
	if err != nil {
		return nil, err
	}
	plan := planRowsMarker
	if paged {
		t.launchData = t.blocksOnly()
	} else {
		if t.launchData, err = t.loadPlanData(ctx, e, pin.proj.Dir); err != nil {
			return nil, err
		}
		lp, err := makeLaunchPlan(t, t.launchData)
		if err != nil {
			return nil, err
		}
		if plan, err = lp.encode(); err != nil {
			return nil, err
		}
	}
	if err := e.recordBackfill(ctx, rows, id, t.pl.ID, string(raw), pin.hash, plan); err != nil {
		return nil, err
	}
	if err := e.backfillEvent(ctx, id, StateRunning, "launched"); err != nil {
		return nil, err
	}
	e.startBackfill(id, t, false, nil)
	return e.Backfill(ctx, id)
}

// recordBackfill records a backfill and the rows of its plan (those
// statements write them) in one transaction: a pass never finds one
// without the other.
func (e *Engine) recordBackfill(ctx context.Context, rows []planStmt, id, pipeline, spec, snapshot, plan string) error {
	conn, err := e.wh.DB().Conn(ctx)
	if err != nil {
		return fmt.Errorf("record backfill: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN TRANSACTION"); err != nil {
		return fmt.Errorf("record backfill: %w", err)
	}
	err = func() error {
		for _, st := range rows {
			if _, err := conn.ExecContext(ctx, st.sql, st.args...); err != nil {
				return fmt.Errorf("record the plan: %w", err)
			}
		}
		_, err := conn.ExecContext(ctx, `INSERT INTO _strata.backfills (backfill_id, created_at, pipeline, spec, snapshot, plan) VALUES (?, ?, ?, ?, ?, ?)`,
			id, e.now(), pipeline, spec, snapshot, plan)
		return err
	}()
	if err == nil {
		_, err = conn.ExecContext(ctx, "COMMIT")
	}
	if err != nil {
		_, _ = conn.ExecContext(context.Background(), "ROLLBACK")
		return fmt.Errorf("record backfill: %w", err)
	}
	return nil
}

func (e *Engine) backfillEvent(ctx context.Context, id string, s State, msg string) error {
	if err := e.wh.Healthy(); err != nil {
		return fmt.Errorf("record backfill %s %s: %w", id, s, err)
	}
	_, err := e.wh.DB().ExecContext(ctx, `INSERT INTO _strata.backfill_events VALUES (?, ?, ?, ?)`, id, e.now(), string(s), msg)
	if err == nil {
		e.hub.Publish(Notice{Kind: "progress", Progress: &Progress{BackfillID: id, State: s}})
	}
	return err
}

func (e *Engine) startBackfill(id string, t *target, retry bool, only map[string]bool) *backfillRun {
	// The backfill's span is a trace of its own, its runs' spans its children.
	ctx, span := tracing.Start(context.Background(), "backfill",
		attribute.String("strata.backfill", id), attribute.String("strata.pipeline", t.pl.ID),
		attribute.String("strata.from", t.from), attribute.String("strata.to", t.to), attribute.Bool("strata.retry", retry))
	ctx = tracing.WithBackfill(ctx, id) // its runs' log lines name it
	ctx, cancel := context.WithCancel(ctx)
	b := &backfillRun{e: e, id: id, t: t, ctx: ctx, cancel: cancel, retry: retry, only: only, start: time.Now(),
		win: newWindow(t.spec.Concurrency, t.spec.RatePerMin), finishes: newRateWindow(time.Minute), done: make(chan struct{}), book: newSlotBook(nil),
		instance: controlInstance{Backfill: id, Instance: fmt.Sprintf("%d-%s", os.Getpid(), newNonce()), PID: os.Getpid(), Started: time.Now()}}
	// The book is read (and what a crash left running queued again)
	// before the backfill answers as running in this process: its counts
	// are the log's from the first status read on.
	if slots, err := e.partitionSlots(ctx, id); err != nil {
		b.bookErr = err
	} else if err := b.requeueInterrupted(ctx, slots); err != nil {
		b.bookErr = err
	} else {
		b.book.load(slots)
	}
	e.mu.Lock()
	e.backfills[id] = b
	e.mu.Unlock()
	release := e.hold(t.pin.hash)
	dir := e.project().Dir
	if err := advertise(dir, b.instance); err != nil {
		// Runs anyway; only control from another process is lost, and
		// that process will say "not running" rather than hang.
		slog.WarnContext(ctx, "backfill: cannot advertise it for cancel/pause from other processes", "err", err)
	}
	// Its partitions' statements share the cores (warehouse_threads.go)
	// from the moment it is launched, not once its goroutine gets going.
	unshare := e.wh.ShareCores(t.spec.Concurrency)
	go func() {
		defer close(b.done)
		defer unadvertise(dir, b.instance)
		defer unshare()
		err := b.run() // its outcome is in the event log
		tracing.End(span, err, e.secrets.Mask)
		e.mu.Lock()
		delete(e.backfills, id)
		e.mu.Unlock()
		release()
		// A backfill that ended may leave snapshots nothing needs (its
		// own, once it succeeded, if its versions were retained away; an
		// older one a --use-current-code retry moved it off). Not on a
		// shutdown: the process is closing the warehouse.
		if b.ctx.Err() == nil || b.cancelledByUser.Load() {
			e.collectSnapshots(context.Background())
		}
	}()
	return b
}

func (e *Engine) running(id string) *backfillRun {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.backfills[id]
}

// run visits the range oldest first and starts each partition's run.
func (b *backfillRun) run() error {
	e, t := b.e, b.t
	ctx := b.ctx
	lp, err := e.loadLaunchPlan(ctx, b.id)
	if err != nil {
		return b.finish(err)
	}
	_, paged := lp.(*pagedPlan)
	pd := t.launchData
	switch {
	case pd != nil:
	case paged:
		pd = t.blocksOnly() // the plan holds every decision: no versions read
	default:
		if pd, err = t.loadPlanData(ctx, e, t.pin.proj.Dir); err != nil {
			return b.finish(err)
		}
	}
	// The backfill's pipeline version is built once, before anything runs:
	// never a rebuild mid-way, whatever happens to the files.
	code, err := e.prepare(ctx, t.pin, t.spec.Engine)
	if err != nil {
		return b.finish(err)
	}
	defer code.release()
	b.engine.Store(code.engine)
	// Its runs commit several partitions to a transaction; every run has
	// ended (the window was waited for) before it stops.
	group := newGroupCommit(e.wh, e.store)
	b.group.Store(group)
	defer group.close()
	msg := "engine: " + code.engine
	if code.built != nil {
		how := "built in " + code.built.Duration.Round(time.Millisecond).String()
		if code.built.Cached {
			how = "already built"
		}
		msg += fmt.Sprintf(" (worker %s, %s)", code.built.Hash[:12], how)
	}
	if err := e.backfillEvent(ctx, b.id, StateRunning, msg); err != nil {
		return b.finish(err)
	}
	if b.bookErr != nil {
		return b.finish(b.bookErr)
	}
	prior := b.book.states()
	var launched time.Time
	if err := e.wh.DB().QueryRowContext(ctx, `SELECT created_at FROM _strata.backfills WHERE backfill_id = ?`, b.id).Scan(&launched); err != nil {
		return b.finish(fmt.Errorf("backfill %s: %w", b.id, err))
	}
	it, err := t.pspec.IterBox(t.box)
	if err != nil {
		return b.finish(err)
	}
	atomicMode := t.spec.Publish == PublishAtomic || t.spec.Publish == PublishReview
	var rollMu sync.Mutex
	rollups := newRollupTracker(t, pd)
	batches := newSQLBatches(t.from, t.to, t.pspec, t.box)
	ticker := time.NewTicker(250 * time.Millisecond)
	stopTicker := make(chan struct{})
	defer func() { ticker.Stop(); close(stopTicker) }()
	// Progress notices and the control file (cancel/pause/resume from
	// another process), also while the window holds partitions on a pause.
	go func() {
		for {
			select {
			case now := <-ticker.C:
				b.pollControl(now)
				e.hub.Publish(Notice{Kind: "progress", Progress: b.progress()})
			case <-stopTicker:
				return
			}
		}
	}()

	// launch starts one partition's run in the window; after runs once its
	// slot is free.
	// planned is the partition's plan at launch, read when it was decided
	// (a paged plan has moved on by the time the run starts); nil: the
	// backfill has no plan, its base is read now.
	launch := func(runID, key, interval string, blocks []*project.Block, planned *plannedRun, after func(State)) bool {
		state := StateFailed
		item := func(release func()) {
			// runID is the partition's slot; each attempt is a run of its own.
			// It counts running once that is durable (started): its slot's
			// previous run may still wait for its publish to commit.
			attempt := b.book.get(runID).next(runID)
			b.book.set(runID, attempt, StateQueued)
			var based map[string]int
			if planned != nil {
				based = planned.basedOn(t.pl, blocks)
			} else {
				based = pd.basedOn(t.pl, blocks, key, b.id, launched)
			}
			opt := RunOptions{RunID: attempt, BackfillID: b.id, Stage: atomicMode, FineOnly: interval == "", Interval: interval,
				Reuse: prior[runID] != "", Snapshot: t.pin.hash, BasedOn: based, code: code, Origin: t.spec.Origin, Actor: t.spec.Actor,
				Blocks: t.spec.Blocks, group: group.join(), batches: batches}
			opt.handoff = sync.OnceFunc(func() {
				release()
				group.freed(ctx.Err() == nil && !b.win.Paused())
			})
			opt.started = func() { b.book.set(runID, attempt, StateRunning) }
			opt.settled = func(s State) { b.book.set(runID, attempt, s) }
			if atomicMode {
				opt.PreferRun = b.id + ":"
			}
			if t.spec.Publish == PublishReview {
				opt.Pin = b.id
			}
			if t.spec.Into != "" {
				opt.Pin, opt.PreferPinned = t.spec.Into, t.spec.Into
			}
			res, err := e.Run(ctx, t.pl.ID, key, opt)
			opt.handoff()
			opt.group.leave()
			if err != nil {
				e.store.Append(Event{RunID: attempt, BackfillID: b.id, Pipeline: t.pl.ID, Partition: key, State: StateFailed, Error: err.Error(),
					Origin: withActor(t.spec.Origin, t.spec.Actor).encode()})
			} else {
				state = res.State
			}
			b.book.set(runID, attempt, state)
			b.finishes.add(time.Now())
		}
		then := func() {
			if after != nil {
				after(state)
			}
		}
		return b.win.GoReleasing(ctx, interval == "", item, then)
	}
	// finishRollup runs a coarse partition once all its fine partitions in range are done.
	finishRollup := func(r *rollup) {
		runID := runIDFor(b.id, r.interval+":"+r.part.Key)
		st := prior[runID]
		if b.only != nil && !b.only[runID] {
			return // not in the group retried: left as it is
		}
		// A rollup an earlier pass skipped because some of its partitions
		// failed is decided again once this pass has re-run some of them.
		again := st == StateSkipped && r.anyRun
		switch {
		case (st == StateSucceeded || st == StateSkipped || st == StateConflict) && !again:
			return
		case r.anyFailed:
			b.skip(runID, r.part.Key, skippedForFailures)
			return
		}
		var pp PlannedPartition
		pr, planOK := lp.of(b.id, runID)
		if planOK {
			pp.State, pp.Action = pr.State, pr.action()
		} else {
			pp = pd.classify(t.pl, r.part, r.interval, r.blocks, t.spec.Reprocess)
		}
		if !r.anyRun && pp.Action != "run" && !(b.retry && st != "") && st != StateRunning && st != StateQueued {
			b.skip(runID, r.part.Key, "skipped: "+pp.State)
			return
		}
		launch(runID, r.part.Key, r.interval, r.blocks, planOf(pr, planOK), nil)
	}
	doneFine := func(rs []*rollup, state State) {
		rollMu.Lock()
		var ready []*rollup
		for _, r := range rs {
			r.remaining--
			if state != StateSucceeded && state != StateSkipped && state != StateConflict {
				r.anyFailed = true
			}
			if r.remaining == 0 {
				ready = append(ready, r)
			}
		}
		rollMu.Unlock()
		for _, r := range ready {
			finishRollup(r)
		}
	}

	// visit decides partition p and starts its run; false stops the pass.
	visit := func(p partitions.Partition) bool {
		if ctx.Err() != nil {
			return false
		}
		runID := runIDFor(b.id, p.Key)
		st := prior[runID]
		pr, planOK := lp.of(b.id, runID)
		var pp PlannedPartition
		decide := func() string {
			// A retry re-runs what did not succeed (failed, cancelled, or
			// left running by a crash); a partition a cancel stopped before
			// it started has no state at all, and is planned as at launch.
			switch {
			case st == StateSucceeded || st == StateSkipped || st == StateConflict:
				return "done"
			case b.only != nil && !b.only[runID]:
				return "done" // not in the group retried: keeps its state

			case b.retry && st != "", st == StateRunning, st == StateQueued:
				// Left running by a crash (queued again at the start of
				// this pass), it was planned to run: run it again, as the
				// same attempt (a publish that committed before the crash
				// is found by the run, not repeated, and counts succeeded).
				return "run"
			}
			if planOK {
				// As planned at launch, whatever was published since.
				pp = PlannedPartition{Key: p.Key, State: pr.State, Action: pr.action()}
				return pp.Action
			}
			pp = pd.classify(t.pl, p, string(t.pspec.Interval), pd.fine, t.spec.Reprocess)
			return pp.Action
		}
		action := decide()
		// A day an earlier pass of this backfill ran counts as run by it:
		// its week must be rolled up from it even if the week was current
		// before (a resume after a stop between the days and the week).
		rollMu.Lock()
		rs := rollups.add(p, action == "run" || (action == "done" && st == StateSucceeded))
		rollMu.Unlock()
		switch action {
		case "done":
			doneFine(rs, st)
			return true
		case "skip":
			b.skip(runID, p.Key, "skipped: "+pp.State+" (reprocess="+t.spec.Reprocess+")")
			doneFine(rs, StateSkipped)
			return true
		}
		return launch(runID, p.Key, "", pd.fine, planOf(pr, planOK), func(s State) { doneFine(rs, s) })
	}
	var rollupsOf func(partitions.Partition) []*rollup
	if paged {
		rollupsOf = func(p partitions.Partition) []*rollup {
			rollMu.Lock()
			defer rollMu.Unlock()
			return rollups.add(p, false)
		}
	}
	err = visitPages(ctx, it, e.pageSize(), lp, rollupsOf, visit)
	group.produced()
	b.win.Wait()
	return b.finish(err)
}

// skip records that the partition of slot runID is skipped, and why.
func (b *backfillRun) skip(runID, key, reason string) {
	id := b.book.get(runID).skipID(runID)
	b.e.store.Append(Event{RunID: id, BackfillID: b.id, Pipeline: b.t.pl.ID, Partition: key, State: StateSkipped, Error: reason,
		Origin: withActor(b.t.spec.Origin, b.t.spec.Actor).encode()}) // a run that never started still says who launched it
	b.book.set(runID, id, StateSkipped)
	b.finishes.add(time.Now())
}

// requeueInterrupted records the attempts the log says are running, which
// nothing runs (this process is the only one that runs the backfill, and
// it has not started them: a crash, kill or shutdown stopped them), as
// queued: they run again in this pass under their own ids. Left running,
// the counts said "running 2" at concurrency 1 after a restart, and the
// Runs page a run running that nothing ran.
func (b *backfillRun) requeueInterrupted(ctx context.Context, slots map[string]slotState) error {
	var evs []Event
	for slot, s := range slots {
		if s.State != StateRunning {
			continue
		}
		evs = append(evs, Event{RunID: s.Run, BackfillID: b.id, Pipeline: b.t.pl.ID, Partition: s.Key, State: StateQueued,
			Error: "interrupted: its process stopped before it ended; it runs again, as the same run, when the backfill continues"})
		s.State = StateQueued
		slots[slot] = s
	}
	if len(evs) == 0 {
		return nil
	}
	return b.e.store.Write(ctx, evs...)
}

// finish records how the backfill ended; an atomic backfill that fully
// succeeded switches every staged version to current in one transaction.
func (b *backfillRun) finishOnce(err error) error {
	e := b.e
	ctx := context.Background()
	// A rewrite left the retention of every partition it replaced to its
	// end (warehouse/retention_late.go), and the rows of the versions
	// retention dropped (orphan_sweep.go): both are done before the end is
	// told, so that what it reports is what the catalog holds; what a
	// discard below drops goes after. A failed sweep loses nothing: the
	// next write of the partition, the next sweep, or Open, does it.
	_ = e.wh.Sweep(ctx)
	defer func() {
		_ = e.wh.Sweep(ctx)
		// Then what exactly-once no longer needs (ledger_prune.go), with
		// this backfill's run records written and its versions settled.
		e.pruneLedgers(ctx)
	}()
	if err := e.store.Write(ctx); err != nil {
		return err
	}
	atomicMode := b.t.spec.Publish == PublishAtomic || b.t.spec.Publish == PublishReview
	switch {
	case b.cancelledByUser.Load():
		if atomicMode {
			_ = e.discardStaged(ctx, b.id)
		}
		msg := "cancelled"
		if counts, err := e.backfillCounts(ctx, b.id); err == nil {
			seen := 0
			for _, n := range counts {
				seen += n
			}
			if left := b.t.total + b.t.rollups - seen; left > 0 {
				msg += fmt.Sprintf(": %d partitions had not started (they count as cancelled; retry or resume runs them)", left)
			}
		}
		return e.backfillEvent(ctx, b.id, StateCancelled, msg)
	case err != nil:
		_ = e.backfillEvent(ctx, b.id, StateFailed, err.Error())
		return err
	case b.ctx.Err() != nil:
		return nil // shutdown: stays "running" and resumes on the next start
	}
	counts, err := e.backfillCounts(ctx, b.id)
	if err != nil {
		return err
	}
	// Success means every targeted partition ended succeeded or skipped,
	// not merely that none failed.
	seen := counts[StateSucceeded] + counts[StateSkipped] + counts[StateFailed] + counts[StateCancelled] + counts[StateRunning] + counts[StateConflict]
	missing := b.t.total + b.t.rollups - seen
	if counts[StateFailed]+counts[StateCancelled]+counts[StateRunning] > 0 || missing > 0 {
		msg := fmt.Sprintf("%d partitions failed, %d cancelled", counts[StateFailed], counts[StateCancelled])
		if missing > 0 {
			msg += fmt.Sprintf(", %d never ran", missing)
		}
		if counts[StateConflict] > 0 {
			msg += fmt.Sprintf(", %d in conflict with newer work", counts[StateConflict])
		}
		if atomicMode {
			msg += "; " + b.t.spec.Publish + ": nothing was made current (retry to finish, or discard to drop what it staged)"
		}
		return e.backfillEvent(ctx, b.id, StateFailed, msg)
	}
	if b.t.spec.Into != "" {
		refs, err := e.staged(ctx, b.id)
		if err != nil {
			return err
		}
		return e.backfillEvent(ctx, b.id, StateSucceeded, fmt.Sprintf("staged %d versions into %s; nothing was made current", len(refs), b.t.spec.Into))
	}
	if b.t.spec.Publish == PublishReview {
		refs, err := e.staged(ctx, b.id)
		if err != nil {
			return err
		}
		defer e.pushReview(b.id)
		return e.backfillEvent(ctx, b.id, StateReview, fmt.Sprintf("ready for review: %d versions staged, nothing made current", len(refs)))
	}
	if atomicMode {
		n, held, err := e.promoteStaged(ctx, b.id)
		if err != nil {
			_ = e.backfillEvent(ctx, b.id, StateFailed, "promote: "+err.Error())
			return err
		}
		if held > 0 {
			return e.backfillEvent(ctx, b.id, StateNeedsAttention, "atomic: nothing was made current; "+e.needsAttention(b.id, held))
		}
		return e.backfillEvent(ctx, b.id, StateSucceeded, fmt.Sprintf("promoted %d versions atomically", n))
	}
	if n := counts[StateConflict]; n > 0 {
		return e.backfillEvent(ctx, b.id, StateNeedsAttention, e.needsAttention(b.id, n))
	}
	return e.backfillEvent(ctx, b.id, StateSucceeded, "")
}

// staged lists the newest version each (product, partition) got from this
// backfill's runs that is not current.
func (e *Engine) staged(ctx context.Context, id string) ([]warehouse.VersionRef, error) {
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT v.product, v.partition, max(v.version) FROM _strata.versions v
		LEFT JOIN _strata.current c ON c.product = v.product AND c.partition = v.partition AND c.version = v.version
		WHERE starts_with(v.run_id, ?) AND c.version IS NULL GROUP BY v.product, v.partition`, id+":")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var refs []warehouse.VersionRef
	for rows.Next() {
		var r warehouse.VersionRef
		if err := rows.Scan(&r.Product, &r.Partition, &r.Version); err != nil {
			return nil, err
		}
		refs = append(refs, r)
	}
	return refs, rows.Err()
}

// discardStaged drops the versions an atomic backfill staged and marks
// their partitions cancelled.
func (e *Engine) discardStaged(ctx context.Context, id string) error {
	if spec, err := e.backfillSpec(ctx, id); err == nil && spec.Into != "" {
		return nil // what it staged belongs to the environment now
	}
	refs, err := e.staged(ctx, id)
	if err != nil {
		return err
	}
	if len(refs) > 0 {
		if err := e.wh.Discard(ctx, refs); err != nil {
			return err
		}
	}
	if err := e.wh.Unpin(ctx, id); err != nil { // a review backfill's pins
		return err
	}
	return e.markDiscarded(ctx, id, "cancelled: the atomic backfill was cancelled before its versions were made current, and they were discarded")
}

// markDiscarded records every partition run of the backfill whose latest
// state is succeeded, and that no promote of the backfill switched in, as
// cancelled, with why. It is called right after the backfill's staged
// versions were discarded, when those runs are exactly the ones whose work
// is gone: a retry must run them again, not count them done. A review
// backfill promoted in part keeps its promoted partitions succeeded: their
// versions are current (or were, until newer work), and a retry must not
// run them again.
func (e *Engine) markDiscarded(ctx context.Context, id, why string) error {
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT run_id, any_value(pipeline), any_value(partition_key) FROM _strata.run_events
		WHERE backfill_id = ? AND block_id = '' GROUP BY run_id
		HAVING arg_max(state, seq) = 'succeeded' AND any_value(partition_key) NOT IN (SELECT partition FROM _strata.switch_log WHERE batch = ?)`, id, id)
	if err != nil {
		return err
	}
	var evs []Event
	for rows.Next() {
		ev := Event{BackfillID: id, State: StateCancelled, Error: why}
		if err := rows.Scan(&ev.RunID, &ev.Pipeline, &ev.Partition); err != nil {
			rows.Close()
			return err
		}
		evs = append(evs, ev)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(evs) == 0 {
		return err
	}
	return e.store.Write(ctx, evs...)
}

func (e *Engine) backfillSpec(ctx context.Context, id string) (BackfillSpec, error) {
	var raw string
	err := e.wh.DB().QueryRowContext(ctx, `SELECT spec FROM _strata.backfills WHERE backfill_id = ?`, id).Scan(&raw)
	if err != nil {
		return BackfillSpec{}, errNotFoundf("backfill %q not found", id)
	}
	var s BackfillSpec
	return s, json.Unmarshal([]byte(raw), &s)
}

// NotFoundError marks a lookup of something that does not exist (the API maps it to 404).
type NotFoundError struct{ msg string }

func (e *NotFoundError) Error() string { return e.msg }

func errNotFoundf(format string, args ...any) error {
	return &NotFoundError{fmt.Sprintf(format, args...)}
}
