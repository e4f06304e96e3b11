package replay

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
)

// Options say what to replay.
type Options struct {
	Pipeline string `json:"pipeline"`
	// From and To are partition keys of the pipeline's interval, both
	// included; Last is the newest n stored partitions instead. None: every
	// stored partition.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	Last int    `json:"last,omitempty"`
	// ExpectUnchanged names products (or blocks) that must not change: any
	// changed or failed partition of one fails the replay (Report.Passed).
	ExpectUnchanged []string `json:"expect_unchanged,omitempty"`
	// Engine is interp or compiled; empty: compiled when a toolchain exists.
	Engine string `json:"engine,omitempty"`
	// Rows is how many changed rows each block's diff shows (default 5).
	Rows int `json:"rows,omitempty"`
	// Concurrency is partitions replayed at once (default the pipeline's).
	Concurrency int `json:"concurrency,omitempty"`
}

// Report is a replay's outcome.
type Report struct {
	Pipeline   string                    `json:"pipeline"`
	Snapshot   string                    `json:"snapshot"` // the working tree's pipeline version that ran
	Engine     string                    `json:"engine"`
	EngineNote string                    `json:"engine_note,omitempty"`
	Options    Options                   `json:"options"`
	Started    time.Time                 `json:"started_at"`
	DurationMS float64                   `json:"duration_ms"`
	Counts     Counts                    `json:"counts"`
	Partitions []*engine.PartitionReplay `json:"partitions"`
	Gates      []Gate                    `json:"gates"`
	// Passed: nothing failed and every gate held.
	Passed bool `json:"passed"`
}

// Counts counts partitions by status.
type Counts struct {
	Unchanged int `json:"unchanged"`
	Changed   int `json:"changed"`
	Failed    int `json:"failed"`
}

// Gate is one --expect-unchanged product's verdict.
type Gate struct {
	Product string   `json:"product"`
	Passed  bool     `json:"passed"`
	Changed []string `json:"changed"` // partitions where it changed
	Failed  []string `json:"failed"`  // partitions where its replay failed
}

// Run replays the chosen partitions of a pipeline and judges the gates.
// Progress, when not nil, is called after each partition.
func Run(ctx context.Context, e *engine.Engine, opt Options, progress func(done, total int, p *engine.PartitionReplay)) (*Report, error) {
	if opt.Last < 0 {
		return nil, fmt.Errorf("--last %d: want a positive number of partitions", opt.Last)
	}
	if opt.Last > 0 && (opt.From != "" || opt.To != "") {
		return nil, fmt.Errorf("give --last or --from/--to, not both")
	}
	if opt.Rows == 0 {
		opt.Rows = 5
	}
	pl, err := e.Pipeline(opt.Pipeline)
	if err != nil {
		return nil, err
	}
	gates, err := resolveGates(pl, opt.ExpectUnchanged)
	if err != nil {
		return nil, err
	}
	rp, err := e.NewReplayer(ctx, opt.Pipeline, engine.ReplayOptions{Engine: opt.Engine, Rows: opt.Rows})
	if err != nil {
		return nil, err
	}
	defer rp.Close()
	rep := &Report{Pipeline: pl.ID, Snapshot: rp.Snapshot(), Options: opt, Started: time.Now().UTC(), Partitions: []*engine.PartitionReplay{}, Gates: []Gate{}}
	rep.Engine, rep.EngineNote = rp.Engine()
	targets, err := rp.Targets(ctx, opt.From, opt.To, opt.Last)
	if err != nil {
		return nil, err
	}
	if len(targets) == 0 {
		return nil, fmt.Errorf("pipeline %s has no stored partitions%s to replay: run or backfill it first", pl.ID, rangeText(opt))
	}
	conc := opt.Concurrency
	if conc <= 0 {
		conc = max(pl.Concurrency, 1)
	}
	rep.Partitions = make([]*engine.PartitionReplay, len(targets))
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	sem := make(chan struct{}, conc)
	for i, t := range targets {
		if ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			p := rp.Replay(ctx, t)
			mu.Lock()
			rep.Partitions[i] = p
			done++
			if progress != nil {
				progress(done, len(targets), p)
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("replay of %s stopped: %w", pl.ID, err)
	}
	rep.finish(gates)
	rep.DurationMS = float64(time.Since(rep.Started).Microseconds()) / 1000
	return rep, nil
}

func rangeText(opt Options) string {
	switch {
	case opt.From != "" || opt.To != "":
		return fmt.Sprintf(" from %s to %s", orOpen(opt.From), orOpen(opt.To))
	}
	return ""
}

func orOpen(s string) string {
	if s == "" {
		return "(open)"
	}
	return s
}

// resolveGates maps --expect-unchanged names (product or block id) onto
// the pipeline's products.
func resolveGates(pl *project.Pipeline, names []string) ([]string, error) {
	var out, all []string
	for _, b := range pl.Blocks {
		all = append(all, engine.ProductName(pl, b))
	}
	for _, n := range names {
		found := ""
		for _, b := range pl.Blocks {
			if p := engine.ProductName(pl, b); strings.EqualFold(n, p) || n == b.ID {
				found = p
			}
		}
		if found == "" {
			return nil, fmt.Errorf("--expect-unchanged %s: pipeline %s writes no such product (its products: %s; a block id works too)", n, pl.ID, strings.Join(all, ", "))
		}
		out = append(out, found)
	}
	return out, nil
}

// finish counts the partitions and judges the gates.
func (r *Report) finish(gates []string) {
	for _, p := range r.Partitions {
		switch p.Status {
		case engine.ReplayFailed:
			r.Counts.Failed++
		case engine.ReplayChanged:
			r.Counts.Changed++
		default:
			r.Counts.Unchanged++
		}
	}
	r.Passed = r.Counts.Failed == 0
	for _, g := range gates {
		gate := Gate{Product: g, Passed: true, Changed: []string{}, Failed: []string{}}
		for _, p := range r.Partitions {
			for _, b := range p.Blocks {
				if !strings.EqualFold(b.Product, g) {
					continue
				}
				switch b.Status {
				case engine.ReplayChanged:
					gate.Changed = append(gate.Changed, p.Partition)
				case engine.ReplayFailed:
					gate.Failed = append(gate.Failed, p.Partition)
				}
			}
		}
		gate.Passed = len(gate.Changed) == 0 && len(gate.Failed) == 0
		r.Passed = r.Passed && gate.Passed
		r.Gates = append(r.Gates, gate)
	}
}
