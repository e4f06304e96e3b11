package triggers

import (
	"strings"
	"time"
)

// DefaultCatchUp is how many missed ticks run after downtime when a trigger
// does not say: the latest one, so a restart never floods.
const DefaultCatchUp = 1

// Plan is what a schedule trigger does at `now`: the ticks to run, oldest
// first, and the missed ticks it skips (counted, with the span they cover,
// so that a year of a per-minute schedule is one record, not 525,600).
type Plan struct {
	Run          []time.Time `json:"run"`
	Skipped      int         `json:"skipped"`
	SkippedFirst time.Time   `json:"skipped_first,omitzero"`
	SkippedLast  time.Time   `json:"skipped_last,omitzero"`
}

// Empty reports whether nothing is due.
func (p Plan) Empty() bool { return len(p.Run) == 0 && p.Skipped == 0 }

// Due plans the ticks of s in (anchor, now]: anchor is the last tick the
// trigger recorded (run or skipped), or the moment it was first seen. At most
// max of the most recent missed ticks run, oldest first; the older ones are
// skipped. max < 1 means DefaultCatchUp.
func Due(s *Schedule, anchor, now time.Time, max int) Plan {
	if max < 1 {
		max = DefaultCatchUp
	}
	var p Plan
	ring := make([]time.Time, 0, max)
	s.each(anchor, now, func(t time.Time) bool {
		if len(ring) == max {
			if p.Skipped == 0 {
				p.SkippedFirst = ring[0]
			}
			p.Skipped++
			p.SkippedLast = ring[0]
			ring = append(ring[1:], t)
			return true
		}
		ring = append(ring, t)
		return true
	})
	p.Run = ring
	if len(p.Run) == 0 {
		p.Run = nil
	}
	return p
}

// TickID is the deterministic id of the work a tick launches: the same
// pipeline, trigger and tick always give the same id, so a replay after a
// crash finds what it launched instead of launching it again.
func TickID(pipeline, trigger string, tick time.Time) string {
	return "trg_" + pipeline + "_" + trigger + "_" + tick.UTC().Format("20060102T150405Z")
}

// EventID is the id of the work an event trigger launches for one coalesced
// batch of upstream changes; batch names the upstream work, the first
// downstream partition and the flush time. It is recorded before the launch,
// so a restart launches the recorded id, not a new one.
func EventID(pipeline, trigger, batch string) string {
	return "evt_" + pipeline + "_" + trigger + "_" + strings.NewReplacer(":", "_", "/", "_", " ", "_").Replace(batch)
}
