package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
)

// BackfillSpec is what a user asks a backfill to do.
type BackfillSpec struct {
	Pipeline string `json:"pipeline"`
	// From and To are partition keys, both included. With Interval (and
	// Zone) they are keys of that calendar instead, and the backfill targets
	// the pipeline's partitions that overlap them: --interval month --from
	// 2024-01 --to 2024-03 is every day of the quarter.
	From     string `json:"from"`
	To       string `json:"to"`
	Interval string `json:"interval,omitempty"`
	Zone     string `json:"zone,omitempty"`
	// Reprocess: missing (default) runs partitions without data; failed
	// also those whose last run failed; stale also those whose code or
	// upstream data changed since they were written; all runs everything.
	Reprocess   string  `json:"reprocess,omitempty"`
	Concurrency int     `json:"concurrency,omitempty"`  // partitions at once; default the pipeline's
	RatePerMin  float64 `json:"rate_per_min,omitempty"` // partitions started per minute; 0 = unpaced
	// Rate is the pace as the CLI writes it ("600/m", "10/s"), for API
	// clients; normalized into RatePerMin, and refused beside it.
	Rate string `json:"rate,omitempty"`
	// Publish: partition (default; each partition visible when it succeeds),
	// atomic (nothing becomes current until all succeeded, then all at once)
	// or review (nothing becomes current: the backfill ends ready for
	// review, and a user promotes all or part of it, or discards it).
	Publish string `json:"publish,omitempty"`
	// Engine forces interp or compiled Go blocks; empty: compiled when a
	// Go toolchain is found. A backfill builds once, before it starts.
	Engine string `json:"engine,omitempty"`
	// Origin is what launched the backfill, when not a person (a trigger).
	Origin *Origin `json:"origin,omitempty"`
	// Actor is who launched it (a user's name), as handed by the server or
	// the CLI; each of its runs records it too.
	Actor string `json:"actor,omitempty"`
	// Into stages every version under this pin owner instead of the
	// backfill's id, and has its runs read upstreams through that owner's
	// pins first: an environment's (projects/envs). It implies publish
	// review; nothing becomes current, and what it staged stays in the
	// environment when it fails or is cancelled.
	Into string `json:"into,omitempty"`
	// AllowOverlap launches it even while another backfill of the
	// pipeline runs over part of its range (backfill_overlap.go).
	AllowOverlap bool `json:"allow_overlap,omitempty"`
	// Blocks, when given, is the subset of the pipeline's blocks the
	// backfill recomputes (Dagster's asset subset); empty: every block.
	// The others are not run: a block of the subset reads their current
	// versions, and a block downstream of the subset that is left out
	// keeps its versions, which become stale (backfill_subset.go).
	Blocks []string `json:"blocks,omitempty"`
	// Where narrows a pipeline with value dimensions to some of their
	// values (--where region=eu,us): dimension -> values. A dimension not
	// named is taken whole. From and To stay the time range.
	Where map[string][]string `json:"where,omitempty"`
	// KeySets are the versions of the dynamic dimensions' key sets the
	// backfill targets: dimension -> version. Empty at launch means the
	// key set as its product is now; the launch records which version
	// that was, so a resume or retry targets the same cells. Naming an
	// older version targets its keys (a key set rolled back).
	KeySets map[string]int `json:"key_sets,omitempty"`

	// resolvedWhere is Where with @new replaced by the keys it means.
	resolvedWhere map[string][]string
}

// Reprocess policies and publish modes.
const (
	ReprocessMissing = "missing"
	ReprocessFailed  = "failed"
	ReprocessStale   = "stale"
	ReprocessAll     = "all"

	PublishPartition = "partition"
	PublishAtomic    = "atomic"
	PublishReview    = "review"
)

// The accepted pacing. A rate below one partition a day is almost surely a
// typo, and its interval would overflow a time.Duration somewhere below
// 1e-8/m (which used to run the backfill unpaced); above 1000 a second the
// pacer cannot keep up anyway. A written rate of zero ("0/m") would start
// nothing, and used to run the backfill unpaced: it is refused (leaving the
// rate out is unpaced). More than MaxConcurrency partitions at once is more
// goroutines and kernel queue than any pool here serves; a pipeline file
// asking for more is a load problem (project.MaxConcurrency).
const (
	MinRatePerMin  = 1.0 / (24 * 60)
	MaxRatePerMin  = 60_000
	MaxConcurrency = project.MaxConcurrency
)

// rateRange says the accepted rates, for errors.
var rateRange = fmt.Sprintf("between 1/d (%.6f per minute) and %d per minute (1000/s)", MinRatePerMin, MaxRatePerMin)

// ParseRate reads "600/m", "10/s", "1000/h", "2/d" or a plain number per
// minute; empty is unpaced, and a written zero is refused.
func ParseRate(s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	num, unit, _ := strings.Cut(s, "/")
	n, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil {
		return 0, fmt.Errorf("rate %q: want partitions per minute such as 600/m, 10/s or 1000/h, %s", s, rateRange)
	}
	var perMin float64
	switch strings.TrimSpace(unit) {
	case "", "m", "min":
		perMin = n
	case "s", "sec":
		perMin = n * 60
	case "h", "hour":
		perMin = n / 60
	case "d", "day":
		perMin = n / (24 * 60)
	default:
		return 0, fmt.Errorf("rate %q: unit must be /s, /m, /h or /d", s)
	}
	if perMin == 0 {
		return 0, fmt.Errorf("rate %q starts no partition at all: want %s (leave the rate out to run unpaced)", s, rateRange)
	}
	if err := checkRate(perMin); err != nil {
		return 0, fmt.Errorf("rate %q: %w", s, err)
	}
	return perMin, nil
}

// checkRate refuses a rate outside the accepted range (0 is unpaced).
func checkRate(perMin float64) error {
	if perMin == 0 {
		return nil
	}
	// The tolerance lets "1/d" itself through despite rounding.
	if !(perMin >= MinRatePerMin*(1-1e-9)) || perMin > MaxRatePerMin {
		return fmt.Errorf("%g partitions per minute is out of range: want %s, or 0 for unpaced", perMin, rateRange)
	}
	return nil
}

// SpecError is a backfill spec the engine refuses (a bad range, policy,
// concurrency or rate): the client's to fix, unlike a storage failure.
type SpecError struct{ Err error }

func (e *SpecError) Error() string { return e.Err.Error() }
func (e *SpecError) Unwrap() error { return e.Err }

// target is a normalized spec: the pipeline's partitions to visit.
type target struct {
	spec     BackfillSpec
	pl       *project.Pipeline
	pin      *pinned // the pipeline version it runs; nil in a dry run
	pspec    partitions.Spec
	from, to string // pipeline partition keys (time keys with value dimensions)
	box      partitions.Box
	total    int // pipeline partitions (cells) in the range
	rollups  int // coarse partitions (weeks, months) the range touches
	// launchData is what the launch planned with, handed to the first
	// pass so that it does not read the catalog again.
	launchData *planData
}

// target normalizes s against pl, the pipeline as the backfill sees it
// (its pinned version, or the files now for a dry run); what it refuses is
// a *SpecError (or the pipeline's NotFoundError).
func (e *Engine) target(ctx context.Context, s BackfillSpec, pl *project.Pipeline) (*target, error) {
	t, err := e.targetOf(ctx, s, pl)
	var nf *NotFoundError
	if err != nil && !errors.As(err, &nf) {
		return nil, &SpecError{err}
	}
	return t, err
}

func (e *Engine) targetOf(ctx context.Context, s BackfillSpec, pl *project.Pipeline) (*target, error) {
	pspec, err := SpecOf(pl.Partitions)
	if err != nil {
		return nil, err
	}
	if !pspec.Partitioned() {
		return nil, fmt.Errorf("pipeline %s is not partitioned: run it with `strata run`", pl.ID)
	}
	if pspec, s, err = e.resolveKeySets(ctx, pl, pspec, s); err != nil {
		return nil, err
	}
	switch s.Reprocess {
	case "":
		s.Reprocess = ReprocessMissing
	case ReprocessMissing, ReprocessFailed, ReprocessStale, ReprocessAll:
	default:
		return nil, fmt.Errorf("reprocess %q: want missing, failed, stale or all", s.Reprocess)
	}
	if s.Into != "" {
		switch s.Publish {
		case "":
			s.Publish = PublishReview
		case PublishReview:
		default:
			return nil, fmt.Errorf("publish %q: a backfill into %s stages its versions there (publish review); it cannot publish %s", s.Publish, s.Into, s.Publish)
		}
	}
	switch s.Publish {
	case "":
		s.Publish = PublishPartition
	case PublishPartition, PublishAtomic, PublishReview:
	default:
		return nil, fmt.Errorf("publish %q: want partition, atomic or review", s.Publish)
	}
	if _, err := ParseEngine(s.Engine); err != nil {
		return nil, err
	}
	switch {
	case s.Concurrency == 0:
		s.Concurrency = pl.Concurrency
	case s.Concurrency < 0 || s.Concurrency > MaxConcurrency:
		return nil, fmt.Errorf("concurrency %d: want between 1 and %d partitions at once, or 0 for the pipeline's %d", s.Concurrency, MaxConcurrency, pl.Concurrency)
	}
	if s.Rate != "" {
		if s.RatePerMin != 0 {
			return nil, fmt.Errorf("rate %q and rate_per_min %g: give one of them", s.Rate, s.RatePerMin)
		}
		if s.RatePerMin, err = ParseRate(s.Rate); err != nil {
			return nil, err
		}
		s.Rate = ""
	}
	if err := checkRate(s.RatePerMin); err != nil {
		return nil, fmt.Errorf("rate_per_min: %w", err)
	}
	if s.Blocks, err = checkSubset(pl, s.Blocks); err != nil {
		return nil, err
	}
	t := &target{pl: pl, pspec: pspec, from: s.From, to: s.To}
	if pspec.Interval == partitions.None {
		if s.From != "" || s.To != "" {
			return nil, fmt.Errorf("pipeline %s has no time dimension: leave out --from and --to (select cells with --where)", pl.ID)
		}
		return e.finishTarget(t, s)
	}
	if s.From == "" || s.To == "" {
		return nil, fmt.Errorf("a backfill needs --from and --to (partition keys such as %s, both included)", pspec.Latest(e.now()).Key)
	}
	if pspec.Dimensional() && (strings.Contains(s.From, partitions.KeySep) || strings.Contains(s.To, partitions.KeySep)) {
		return nil, fmt.Errorf("--from and --to are time keys (such as %s); select the other dimensions (%s) with --where", pspec.Latest(e.now()).Key, strings.Join(pspec.DimNames(), ", "))
	}
	if (s.Interval != "" && s.Interval != string(pspec.Interval)) || (s.Zone != "" && s.Zone != pspec.Zone.String()) {
		cal, err := partitions.NewSpec(firstNonEmpty(s.Interval, string(pspec.Interval)), firstNonEmpty(s.Zone, pspec.Zone.String()), pl.Partitions.WeekStart, "")
		if err != nil {
			return nil, err
		}
		a, err := cal.Parse(s.From)
		if err != nil {
			return nil, fmt.Errorf("from: %w", err)
		}
		b, err := cal.Parse(s.To)
		if err != nil {
			return nil, fmt.Errorf("to: %w", err)
		}
		first := pspec.At(a.Start)
		if first.Start.Before(pspec.Start) && !pspec.Start.IsZero() {
			first = pspec.At(pspec.Start)
		}
		t.from, t.to = first.Key, pspec.At(b.End.Add(-time.Nanosecond)).Key
	}
	// A partition that has not started has no data to compute yet; a
	// backfill into the future is almost always a typo in a year.
	if last, err := pspec.TimeOnly().Parse(t.to); err == nil {
		if err := checkStarted(pl.ID, "to", pspec, last, e.now()); err != nil {
			return nil, err
		}
	}
	return e.finishTarget(t, s)
}

// finishTarget counts t's cells and rollups once its range is known.
func (e *Engine) finishTarget(t *target, s BackfillSpec) (*target, error) {
	t.box = partitions.Box{From: t.from, To: t.to, Where: s.Where}
	if s.resolvedWhere != nil {
		t.box.Where = s.resolvedWhere
	}
	var err error
	if t.total, err = t.pspec.CountBox(t.box); err != nil {
		return nil, fmt.Errorf("pipeline %s: %w", t.pl.ID, err)
	}
	t.spec = s
	t.rollups = rollupCount(t)
	return t, nil
}

// specOf is the partition math of a block of t's pipeline: its interval,
// and the pipeline's value dimensions with the key sets t loaded.
func (t *target) specOf(c project.PartitionConfig) (partitions.Spec, error) {
	s, err := SpecOf(c)
	if err == nil && len(s.Dims) == len(t.pspec.Dims) {
		s.Dims = t.pspec.Dims
	}
	return s, err
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func newBackfillID(now time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return "bf_" + now.UTC().Format("20060102T150405") + "_" + hex.EncodeToString(b[:])
}

// runIDFor is the deterministic run id of one partition of a backfill: a
// replay after a crash computes the same id and finds what it published.
func runIDFor(backfillID, key string) string { return backfillID + ":" + key }
