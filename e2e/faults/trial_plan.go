package faults

import (
	"fmt"
	"math/rand"
	"time"
)

// The reference range: four whole weeks of the demo pipeline (its weeks
// start on Monday, and 2024-01-01 is one), so a trial's two-week range
// always rolls up whole weeks and its content can be compared with the
// reference run's.
const (
	refFrom  = "2024-01-01"
	refWeeks = 4
)

// Trial is one backfill with the moments it is killed at.
type Trial struct {
	N           int    // index in its run, for messages
	Seed        int64  // replays this trial alone (STRATA_SOAK_SEED with 1 trial)
	Mode        string // "cli" or "server"
	Publish     string // "partition" or "atomic"
	Concurrency int    // 1 or 4
	RatePerMin  int    // 0: unpaced
	From, To    string // two whole weeks inside the reference range
	// Existing is a day made current by a plain run before the backfill
	// ("" for none): reprocess missing must skip it and keep its version.
	Existing string
	// Meddle is a day in the range that a plain run (POST
	// /pipelines/clv/runs) publishes while the backfill runs ("" for none;
	// server trials only): the backfill must not overwrite that newer work
	// and must end needs_attention where it would have.
	Meddle string
	// Kills are delays after each process start; the process is killed
	// with SIGKILL then (if it is still running), and the next resumes.
	Kills []time.Duration
	// Engine forces the backfill's engine ("" automatic; server trials).
	Engine string
}

func (t Trial) String() string {
	rate := "unpaced"
	if t.RatePerMin > 0 {
		rate = fmt.Sprintf("%d/m", t.RatePerMin)
	}
	return fmt.Sprintf("trial %d (seed %d): %s, publish %s, concurrency %d, %s, %s..%s, existing %q, meddle %q, kills at %v",
		t.N, t.Seed, t.Mode, t.Publish, t.Concurrency, rate, t.From, t.To, t.Existing, t.Meddle, t.Kills)
}

// Days and partitions of a trial's range: 14 days and their 2 weeks.
const (
	trialDays       = 14
	trialPartitions = trialDays + 2
)

// perPartition is about what one partition of the demo pipeline takes on
// one slot here; a constant rather than a measurement, so that a seed alone
// replays a trial's plan.
const perPartition = 200 * time.Millisecond

// PlanTrial draws a trial from seed. The kill delays are spread over about
// how long the backfill takes unkilled, so kills land early, mid-way and
// near the end (around an atomic promote) alike.
func PlanTrial(n int, seed int64) Trial {
	rng := rand.New(rand.NewSource(seed))
	t := Trial{N: n, Seed: seed}
	t.Mode = pick(rng, "cli", "server")
	t.Publish = pick(rng, "partition", "atomic")
	t.Concurrency = []int{1, 4}[rng.Intn(2)]
	if rng.Intn(2) == 0 {
		t.RatePerMin = 240
	}
	t.From, t.To = weekRange(rng.Intn(refWeeks - 1))
	if rng.Intn(3) == 0 {
		t.Existing = addDays(t.From, rng.Intn(trialDays))
	}
	t.Kills = killDelays(rng, 1+rng.Intn(3), t.expected())
	if t.Mode == "server" && rng.Intn(3) == 0 {
		t.Meddle = addDays(t.From, rng.Intn(trialDays))
	}
	return t
}

// Corners is the short slice: each publish mode, pace and concurrency
// against each driver, with kill delays from seed.
func Corners(seed int64) []Trial {
	rng := rand.New(rand.NewSource(seed))
	shapes := []Trial{
		{Mode: "cli", Publish: "partition", Concurrency: 4},
		{Mode: "cli", Publish: "atomic", Concurrency: 1, RatePerMin: 240},
		{Mode: "server", Publish: "partition", Concurrency: 1, RatePerMin: 240, Existing: "x"},
		{Mode: "server", Publish: "atomic", Concurrency: 4, Meddle: "x"},
	}
	for i := range shapes {
		t := &shapes[i]
		t.N, t.Seed = i, seed
		t.From, t.To = weekRange(i % (refWeeks - 1))
		if t.Existing != "" {
			t.Existing = addDays(t.From, rng.Intn(trialDays))
		}
		t.Kills = killDelays(rng, 2, t.expected())
		if t.Meddle != "" {
			t.Meddle = addDays(t.From, rng.Intn(trialDays))
		}
	}
	return shapes
}

// GroupCommits is the slice for the backfill's group commit
// (projects/engine/backfill_group_commit.go): at concurrency 8 a whole
// window of partitions (up to 8, a week and a day of the trial's range)
// publishes in one warehouse transaction, so each kill lands with several
// partitions' publishes in flight, often mid-group. Three kills each, from
// seed, for each publish mode and driver.
func GroupCommits(seed int64) []Trial {
	rng := rand.New(rand.NewSource(seed))
	shapes := []Trial{
		{Mode: "cli", Publish: "partition", Concurrency: 8},
		{Mode: "server", Publish: "atomic", Concurrency: 8},
	}
	for i := range shapes {
		t := &shapes[i]
		t.N, t.Seed = i, seed
		t.From, t.To = weekRange(i % (refWeeks - 1))
		t.Kills = killDelays(rng, 3, t.expected())
	}
	return shapes
}

// expected is about how long the trial's backfill takes without kills.
func (t Trial) expected() time.Duration {
	d := time.Duration(trialPartitions) * perPartition / time.Duration(t.Concurrency)
	if t.RatePerMin > 0 {
		d = max(d, time.Duration(trialPartitions)*time.Minute/time.Duration(t.RatePerMin))
	}
	startup := 300 * time.Millisecond
	if t.Mode == "server" {
		startup = time.Second
	}
	return startup + d
}

// killDelays are n delays in [50 ms, 90% of span]: a kill after the
// backfill ended tests nothing.
func killDelays(rng *rand.Rand, n int, span time.Duration) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = time.Duration(rng.Int63n(int64(span)*9/10)) + 50*time.Millisecond
	}
	return out
}

func pick(rng *rand.Rand, a, b string) string {
	if rng.Intn(2) == 0 {
		return a
	}
	return b
}

// weekRange is weeks w and w+1 of the reference range.
func weekRange(w int) (string, string) {
	from := addDays(refFrom, 7*w)
	return from, addDays(from, trialDays-1)
}

func addDays(key string, n int) string {
	d, err := time.Parse(time.DateOnly, key)
	if err != nil {
		panic(err) // keys here are constants of this file
	}
	return d.AddDate(0, 0, n).Format(time.DateOnly)
}
