package engine

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// A replay computes stored partitions again with the pipeline's code as it
// is on disk now (the working tree), each block on exactly the upstream
// versions its stored version recorded (its lineage), and compares each
// result with that stored version (warehouse.DiffTable: the review's keyed
// row diff). It writes nothing: no run event, no version, no state, no
// refresh of a stale product; exports do not run. So each block is tested
// on its own: a change to clv shows in clv's partitions, and the blocks
// below it, fed the stored clv they recorded, stay unchanged; what a change
// does downstream is what a review backfill shows.
//
// A dynamic block's children are replayed from the rows of the parent's
// stored version, one child per row as a run does, and the children's
// union is compared with the stored union. A ctx.Product window reads the
// versions the stored run read (its lineage records them), and ctx.State
// starts from the state that run started from (recorded with the
// version): what moved since (an upstream republished, the cursor moved
// on) does not show as a change of the code. A recorded input that is
// gone (retention, a discard) fails the block with that reason.

// Replay statuses of a block or a partition.
const (
	ReplayUnchanged = "unchanged"
	ReplayChanged   = "changed"
	ReplayFailed    = "failed"
	ReplaySkipped   = "skipped"
)

// ReplayOptions tune a replay.
type ReplayOptions struct {
	// Engine runs the Go blocks interpreted or compiled; empty: compiled
	// when a Go toolchain is found, as a backfill chooses.
	Engine string
	// Rows is how many changed rows each block's diff returns.
	Rows int
}

// BlockReplay is one block's replay of one partition.
type BlockReplay struct {
	Block   string `json:"block"`
	Product string `json:"product"`
	Status  string `json:"status"`
	// Version is the stored version the result was compared with.
	Version    int                      `json:"version"`
	Error      string                   `json:"error,omitempty"`
	ErrorFile  string                   `json:"error_file,omitempty"`
	ErrorLine  int                      `json:"error_line,omitempty"`
	Log        string                   `json:"log,omitempty"`
	Children   int                      `json:"children,omitempty"` // a fan-out block: children replayed
	Diff       *warehouse.PartitionDiff `json:"diff,omitempty"`
	DurationMS float64                  `json:"duration_ms"`
}

// PartitionReplay is the replay of one stored partition.
type PartitionReplay struct {
	Partition  string        `json:"partition"`
	Interval   string        `json:"interval"`
	Start      time.Time     `json:"start"`
	Status     string        `json:"status"` // unchanged, changed or failed
	Blocks     []BlockReplay `json:"blocks"`
	DurationMS float64       `json:"duration_ms"`
}

// Replayer replays partitions of one pipeline with one build of its
// working-tree code.
type Replayer struct {
	e    *Engine
	pin  *pinned
	code *preparedCode
	opt  ReplayOptions
	done func()
}

// NewReplayer takes the pipeline's files as they are now and prepares
// their executor (a compiled build when a toolchain is found). Close it.
func (e *Engine) NewReplayer(ctx context.Context, pipelineID string, opt ReplayOptions) (*Replayer, error) {
	if _, err := ParseEngine(opt.Engine); err != nil {
		return nil, err
	}
	pin, err := e.pin(pipelineID)
	if err != nil {
		return nil, err
	}
	unhold := e.hold(pin.hash)
	code, err := e.prepare(ctx, pin, opt.Engine)
	if err != nil {
		unhold()
		return nil, err
	}
	return &Replayer{e: e, pin: pin, code: code, opt: opt, done: func() { code.release(); unhold() }}, nil
}

// Close releases the executor.
func (rp *Replayer) Close() { rp.done() }

// Pipeline is the pipeline as the replay runs it.
func (rp *Replayer) Pipeline() *project.Pipeline { return rp.pin.pl }

// Snapshot is the pipeline version (the working tree's) that the replay runs.
func (rp *Replayer) Snapshot() string { return rp.pin.hash }

// Engine says how the Go blocks run, and Note why not compiled when not.
func (rp *Replayer) Engine() (engine, note string) { return rp.code.engine, rp.code.note }

// ReplayTarget is one stored partition to replay: of the pipeline's
// interval, or of a coarser one (a weekly rollup's week).
type ReplayTarget struct {
	Interval  string    `json:"interval"`
	Partition string    `json:"partition"`
	Start     time.Time `json:"start"`
}

// Targets lists the stored partitions to replay: the pipeline-interval
// partitions with a current version of one of its products, from..to
// (keys, inclusive; either may be empty) or the newest last of them, and
// the coarser partitions (weeks of a daily pipeline) that contain them and
// are stored too, each once.
func (rp *Replayer) Targets(ctx context.Context, from, to string, last int) ([]ReplayTarget, error) {
	pl := rp.pin.pl
	spec, err := SpecOf(pl.Partitions)
	if err != nil {
		return nil, err
	}
	var lo, hi time.Time
	if from != "" {
		p, err := spec.Parse(from)
		if err != nil {
			return nil, fmt.Errorf("--from: %w", err)
		}
		lo = p.Start
	}
	if to != "" {
		p, err := spec.Parse(to)
		if err != nil {
			return nil, fmt.Errorf("--to: %w", err)
		}
		hi = p.Start
	}
	if !lo.IsZero() && !hi.IsZero() && lo.After(hi) {
		return nil, fmt.Errorf("--from %s is after --to %s (both are included; swap them)", from, to)
	}
	coarse := map[string]partitions.Spec{} // interval -> spec
	var fine, rough []string
	for _, b := range pl.Blocks {
		bs, err := SpecOf(b.Partitions)
		if err != nil {
			return nil, fmt.Errorf("block %s: %w", b.ID, err)
		}
		if b.Entry == project.EntryExport {
			continue
		}
		if bs.Interval == spec.Interval {
			fine = append(fine, ProductName(pl, b))
		} else {
			coarse[string(bs.Interval)] = bs
			rough = append(rough, ProductName(pl, b))
		}
	}
	stored, err := rp.e.wh.CurrentStored(ctx, fine, nil)
	if err != nil {
		return nil, err
	}
	var out []ReplayTarget
	seen := map[string]bool{}
	for _, s := range stored {
		if seen[s.Partition] || (!lo.IsZero() && s.Start.Before(lo)) || (!hi.IsZero() && s.Start.After(hi)) {
			continue
		}
		seen[s.Partition] = true
		out = append(out, ReplayTarget{Interval: string(spec.Interval), Partition: s.Partition, Start: s.Start})
	}
	if last > 0 && len(out) > last {
		out = out[len(out)-last:]
	}
	if len(coarse) == 0 || len(out) == 0 {
		return out, nil
	}
	// The coarser partitions over the chosen ones, when stored.
	want := map[string]ReplayTarget{}
	var keys []string
	for _, t := range out {
		p, err := spec.Parse(t.Partition)
		if err != nil {
			continue // a partition the pipeline's interval no longer reads
		}
		for iv, cs := range coarse {
			for _, c := range spec.Containing(p, cs) {
				if _, ok := want[c.Key]; !ok {
					want[c.Key] = ReplayTarget{Interval: iv, Partition: c.Key, Start: c.Start.UTC()}
					keys = append(keys, c.Key)
				}
			}
		}
	}
	have, err := rp.e.wh.CurrentStored(ctx, rough, keys)
	if err != nil {
		return nil, err
	}
	added := map[string]bool{}
	for _, s := range have {
		if t, ok := want[s.Partition]; ok && !added[s.Partition] {
			added[s.Partition] = true
			out = append(out, t)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out, nil
}

// Replay replays one stored partition: every block of its interval that
// has a current version there.
func (rp *Replayer) Replay(ctx context.Context, t ReplayTarget) *PartitionReplay {
	start := time.Now()
	res := &PartitionReplay{Partition: t.Partition, Interval: t.Interval, Start: t.Start, Status: ReplayUnchanged, Blocks: []BlockReplay{}}
	fail := func(err error) *PartitionReplay {
		res.Status = ReplayFailed
		res.Blocks = append(res.Blocks, BlockReplay{Block: "", Status: ReplayFailed, Error: err.Error()})
		res.DurationMS = ms(time.Since(start))
		return res
	}
	pl := rp.pin.pl
	spec, err := SpecOf(pl.Partitions)
	if err != nil {
		return fail(err)
	}
	opt := RunOptions{RunID: "replay_" + pl.ID + "_" + t.Partition, FineOnly: true}
	if t.Interval != string(spec.Interval) {
		if spec, err = coarseSpec(pl, t.Interval); err != nil {
			return fail(err)
		}
		opt.Interval, opt.FineOnly = t.Interval, false
	}
	p, err := spec.Parse(t.Partition)
	if err != nil {
		return fail(fmt.Errorf("pipeline %s: %w", pl.ID, err))
	}
	r := &runner{e: rp.e, pin: rp.pin, pl: pl, spec: spec, part: p, opt: opt, srcs: rp.pin.srcs, exec: rp.code.exec,
		readVersions: map[string]map[string]int{},
		res:          &RunResult{RunID: opt.RunID, Pipeline: pl.ID, Snapshot: rp.pin.hash, Partition: p.Key, outputs: map[string]*sdk.Table{}}}
	groups, err := r.groups()
	if err != nil {
		return fail(err)
	}
	rs := &replaySession{rp: rp, r: r, g: groups[0], reads: map[string]*sdk.Table{}}
	r.replay = rs
	if err := rs.load(ctx); err != nil {
		return fail(err)
	}
	res.Blocks = rs.run(ctx)
	for _, b := range res.Blocks {
		switch {
		case b.Status == ReplayFailed:
			res.Status = ReplayFailed
		case b.Status == ReplayChanged && res.Status != ReplayFailed:
			res.Status = ReplayChanged
		}
	}
	res.DurationMS = ms(time.Since(start))
	return res
}
