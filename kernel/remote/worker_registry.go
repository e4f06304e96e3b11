package remote

import (
	"sort"
	"sync"
	"time"
)

// heartbeatEvery is how often workers announce themselves; a worker not
// heard from for staleAfter is no longer counted.
const (
	heartbeatEvery = 2 * time.Second
	staleAfter     = 3 * heartbeatEvery
)

// Registry is the coordinator's view of its workers, from heartbeats. It
// decides nothing about tasks (leases do that); it sizes the pool and
// answers `strata workers`.
type Registry struct {
	mu   sync.Mutex
	seen map[string]Heartbeat
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{seen: map[string]Heartbeat{}} }

// Observe records a heartbeat received at now.
func (r *Registry) Observe(hb Heartbeat, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if hb.Leaving {
		delete(r.seen, hb.ID)
		return
	}
	hb.At = now // the coordinator's clock: workers' clocks may differ
	r.seen[hb.ID] = hb
}

// Live lists the workers heard from within staleAfter of now, by host.
func (r *Registry) Live(now time.Time) []Heartbeat {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Heartbeat
	for id, hb := range r.seen {
		if Stale(hb, now) {
			if now.Sub(hb.At) > time.Hour {
				delete(r.seen, id)
			}
			continue
		}
		out = append(out, hb)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Stale says whether a worker has missed its heartbeats at now: it may
// have died or lost its network, and what it last reported (busy slots)
// is no longer true. `strata workers` marks such workers rather than
// listing them as if they were working.
func Stale(hb Heartbeat, now time.Time) bool { return now.Sub(hb.At) > staleAfter }

// StaleAfter is how long a worker may go unheard before it is stale.
const StaleAfter = staleAfter

// All lists every worker seen in the last hour, stale ones included.
func (r *Registry) All() []Heartbeat {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Heartbeat, 0, len(r.seen))
	for _, hb := range r.seen {
		out = append(out, hb)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
