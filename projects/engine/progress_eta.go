package engine

import "time"

// etaInput is what a backfill's ETA is estimated from; Now is passed in so
// the estimate is a pure function of it.
type etaInput struct {
	Now       time.Time
	Remaining int     // partitions not finished yet, running ones included
	Running   int     // of those, started
	Observed  float64 // partitions finished per minute, recently; 0 before the first
	PerMin    float64 // the backfill's pace (--rate): starts per minute; 0 unpaced
	NextStart time.Time
}

// estimateETA is the time until the remaining partitions have finished.
//
// The recent finish rate alone ignored the pace: a backfill at --rate 2/m
// whose first partitions finished seconds apart showed a minute for what
// the pace spreads over an hour. Paced, the waiting partitions start one
// every 1/PerMin minutes from the pacer's next start, so the ETA is at least
// the time until the last of them starts; the observed rate still rules
// when the partitions run slower than the pace lets them start. (How long
// the last one runs is not known before it has; the estimate leaves it out.)
func estimateETA(in etaInput) time.Duration {
	if in.Remaining <= 0 {
		return 0
	}
	var eta time.Duration
	if in.Observed > 0 {
		eta = time.Duration(float64(in.Remaining) / in.Observed * float64(time.Minute))
	}
	waiting := in.Remaining - in.Running
	if in.PerMin <= 0 || waiting <= 0 {
		return eta
	}
	every := time.Duration(float64(time.Minute) / in.PerMin)
	first := in.NextStart
	if first.Before(in.Now) {
		first = in.Now
	}
	lastStart := first.Add(time.Duration(waiting-1) * every)
	return max(eta, lastStart.Sub(in.Now))
}
