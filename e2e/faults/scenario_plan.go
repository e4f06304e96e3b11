package faults

import (
	"fmt"
	"math/rand"
	"time"
)

// Scenarios beside the kill trials: races and takeovers a user brings
// about through the real binary, drawn from a seed like a trial.
//
//   - "promote-race": a review backfill of the demo, then several promotes
//     (and maybe a discard) of it fired at once over HTTP, some limited to
//     a range, the server maybe killed -9 right after. One promote or
//     discard runs at a time: every answer is honest, no partition is
//     switched twice, and the backfill's state is the catalog's.
//   - "takeover": a second pipeline declares the demo's global product
//     daily_customer_metrics after clv published it, under a file name
//     sorting before or after clv.yaml, and is run a few times through the
//     CLI or the API. The product stays clv's: its data, runnability and
//     rollback are untouched.
type Scenario struct {
	N    int
	Seed int64
	Kind string // "promote-race" or "takeover"

	// promote-race
	Promotes    []racer       // fired at once, each after its own small delay
	KillPromote time.Duration // kill -9 the server this long after firing (0: no kill)

	// takeover
	Claimant string // the second pipeline's id
	Via      string // "cli" or "server"
	Attempts int    // runs of the claimant tried
	Early    bool   // the claimant appears after clv's first run (else after its second)
}

// racer is one request of a promote race.
type racer struct {
	Op    string        // "promote" or "discard"
	Only  string        // promote's range ("" for all)
	Delay time.Duration // after the race starts
}

func (s Scenario) String() string {
	if s.Kind == "takeover" {
		return fmt.Sprintf("scenario %d (seed %d): takeover by pipeline %s via %s, %d attempts, early %v", s.N, s.Seed, s.Claimant, s.Via, s.Attempts, s.Early)
	}
	return fmt.Sprintf("scenario %d (seed %d): promote race %+v, kill after %v", s.N, s.Seed, s.Promotes, s.KillPromote)
}

func (s Scenario) label() string { return fmt.Sprintf("scenario %d seed %d", s.N, s.Seed) }

// The review backfill's range: three days of the demo (and the week they
// roll up into), staged again after a change to daily_customer_metrics.
const (
	raceFrom = "2024-01-01"
	raceTo   = "2024-01-03"
	raceOnly = "2024-01-01..2024-01-02"
)

// PlanScenario draws a scenario of kind from seed.
func PlanScenario(n int, seed int64, kind string) Scenario {
	rng := rand.New(rand.NewSource(seed))
	s := Scenario{N: n, Seed: seed, Kind: kind}
	switch kind {
	case "promote-race":
		for range 2 + rng.Intn(3) {
			r := racer{Op: "promote", Delay: time.Duration(rng.Intn(30)) * time.Millisecond}
			switch rng.Intn(6) {
			case 0:
				r.Op = "discard"
			case 1, 2:
				r.Only = raceOnly
			}
			s.Promotes = append(s.Promotes, r)
		}
		if rng.Intn(3) == 0 {
			s.KillPromote = time.Duration(5+rng.Intn(120)) * time.Millisecond // a promote of the demo's 19 versions takes about 60 ms
		}
	case "takeover":
		s.Claimant = pick(rng, "aaa_copy", "zz_copy") // before or after clv.yaml
		s.Via = pick(rng, "cli", "server")
		s.Attempts = 1 + rng.Intn(3)
		s.Early = rng.Intn(2) == 0
	default:
		panic("unknown scenario " + kind) // kinds are constants of this package
	}
	return s
}
