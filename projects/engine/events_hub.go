package engine

import (
	"slices"
	"sync"
)

// Hub fans engine events out to subscribers (the websocket, the CLI's
// progress bar). A subscriber that cannot keep up loses events rather than
// slowing the engine; it sees Lagged and can re-read state from the store.
type Hub struct {
	mu   sync.Mutex
	subs map[*Subscription]struct{}
}

// Subscription receives events matching its filter.
type Subscription struct {
	C      chan Notice
	filter func(Notice) bool
	hub    *Hub
	kinds  []string // set by SubscribeKinds; nil: a filter that may pass any kind
	Lagged bool
}

// Notice is what subscribers receive: a state event, streamed output, or
// backfill progress.
type Notice struct {
	Kind     string    `json:"kind"` // state, stdout, log, progress
	Event    *Event    `json:"event,omitempty"`
	Progress *Progress `json:"progress,omitempty"`
	Text     string    `json:"text,omitempty"`
	// Published lists versions that became current (Kind NoticePublished).
	Published *Publication `json:"published,omitempty"`
	// Review is a review backfill's review, pushed when it becomes ready
	// for review, is promoted (in part), refused, discarded or rolled back
	// (Kind NoticeReview).
	Review *BackfillReview `json:"review,omitempty"`
	// Data is a payload of other packages' kinds (trigger firings).
	Data any `json:"data,omitempty"`
}

// NewHub returns an empty hub.
func NewHub() *Hub { return &Hub{subs: map[*Subscription]struct{}{}} }

// Subscribe returns a subscription; filter nil means everything.
func (h *Hub) Subscribe(buffer int, filter func(Notice) bool) *Subscription {
	s := &Subscription{C: make(chan Notice, buffer), filter: filter, hub: h}
	h.mu.Lock()
	h.subs[s] = struct{}{}
	h.mu.Unlock()
	return s
}

// Close ends the subscription.
func (s *Subscription) Close() {
	s.hub.mu.Lock()
	if _, ok := s.hub.subs[s]; ok {
		delete(s.hub.subs, s)
		close(s.C)
	}
	s.hub.mu.Unlock()
}

// Subscribed reports whether anyone listens to notices of kind: work done
// only to publish (a review recomputed) can be skipped when nobody does.
func (h *Hub) Subscribed(kind string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		// A filter may look at more than the kind: a subscriber that did
		// not name its kinds may want any.
		if s.kinds == nil || slices.Contains(s.kinds, kind) {
			return true
		}
	}
	return false
}

// SubscribeKinds is Subscribe to the notices of the kinds named: unlike
// a filter's, they are known, so Subscribed of another kind ignores it.
func (h *Hub) SubscribeKinds(buffer int, kinds ...string) *Subscription {
	s := h.Subscribe(buffer, func(n Notice) bool { return slices.Contains(kinds, n.Kind) })
	h.mu.Lock()
	s.kinds = kinds
	h.mu.Unlock()
	return s
}

// Publish delivers n to every matching subscriber without blocking.
func (h *Hub) Publish(n Notice) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		if s.filter != nil && !s.filter(n) {
			continue
		}
		select {
		case s.C <- n:
		default:
			s.Lagged = true
		}
	}
}
