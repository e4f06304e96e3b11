package redact

import (
	"slices"
	"strings"
	"sync"
)

// Stream masks the pieces of several named streams (stdout, stderr) as one
// text per stream. The zero value is not usable: see NewStream.
type Stream struct {
	mask    func(string) string // replaces every whole value
	needles func() []string     // the values mask replaces, as of now

	mu    sync.Mutex
	held  map[string]string // per stream: a tail that may start a value
	order []string          // stream names in the order first held
}

// NewStream masks with mask; needles lists the values it replaces (read on
// every write: values resolved during a run count from then on).
func NewStream(mask func(string) string, needles func() []string) *Stream {
	return &Stream{mask: mask, needles: needles, held: map[string]string{}}
}

// Piece is one stream's text.
type Piece struct {
	Name, Data string
}

// Write masks data as the continuation of what stream name was given
// before, and returns what can be shown now: everything but the longest end
// that is the start of a value (held until the next write or Flush). With
// no values, data comes back as it is.
func (s *Stream) Write(name, data string) string {
	needles := s.needles()
	s.mu.Lock()
	defer s.mu.Unlock()
	prev, had := s.held[name]
	if len(needles) == 0 && !had {
		return data
	}
	text := s.mask(prev + data)
	n := Holdback(text, needles)
	if n == 0 {
		delete(s.held, name)
		return text
	}
	if !slices.Contains(s.order, name) {
		s.order = append(s.order, name)
	}
	s.held[name] = text[len(text)-n:]
	return text[:len(text)-n]
}

// Flush gives back, masked, what each stream still holds (the run ended:
// nothing more can complete a value), in the order the streams were first
// held, and forgets it.
func (s *Stream) Flush() []Piece {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Piece
	for _, name := range s.order {
		if t, ok := s.held[name]; ok && t != "" {
			out = append(out, Piece{Name: name, Data: s.mask(t)})
		}
	}
	s.held, s.order = map[string]string{}, nil
	return out
}

// Holdback is the length of the longest end of text that is a proper
// start of one of needles: the part a later piece may turn into a value.
func Holdback(text string, needles []string) int {
	best := 0
	for _, n := range needles {
		for k := min(len(n)-1, len(text)); k > best; k-- {
			if strings.HasSuffix(text, n[:k]) {
				best = k
				break
			}
		}
	}
	return best
}
