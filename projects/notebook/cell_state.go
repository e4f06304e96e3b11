package notebook

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/fingerprint"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/snapshot"
)

// CellState is what a notebook cell shows about one partition: whether the
// warehouse's output of its block is current or stale and why (as a
// backfill plan judges it), whether the session's draft of it is older
// than its code or than its upstreams' outputs, and what "Run with
// upstream" would run.
type CellState struct {
	Block  string             `json:"block"`
	Stored engine.StoredState `json:"stored"`
	Draft  *DraftState        `json:"draft,omitempty"`
	// Fresh: what a downstream cell would read of this block in this session
	// (its draft, else published data) is up to date.
	Fresh bool `json:"fresh"`
	// Session says why a cell without a draft is not fresh although its
	// stored output is current (an upstream's draft differs from published).
	Session string `json:"session,omitempty"`
	// Plan is what "Run with upstream" runs, in order: the ancestors that
	// are not fresh (and those below them, whose inputs they change), then
	// the block itself.
	Plan  []string      `json:"plan"`
	Items *engine.Items `json:"items,omitempty"` // under a dynamic parent: the items it can run as
	// ItemsError says why the items could not be listed (the parent has no data yet).
	ItemsError string `json:"items_error,omitempty"`
}

// DraftState is the session's draft of a cell for one partition.
type DraftState struct {
	At    time.Time `json:"at"`
	Rows  int       `json:"rows"`
	Item  string    `json:"item,omitempty"`
	State string    `json:"state"` // current or stale
	// Cause: code (the cell's text or a variable changed since the draft),
	// upstream (an upstream's draft or published data changed since it
	// read it), upstream_stale (an upstream is itself not fresh).
	Cause  string `json:"cause,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// CellStates judges every cell of pipeline for partition key (the latest
// complete one when empty). sources holds editor texts that differ from
// the saved files (unsaved edits): a draft is compared with the text the
// cell has now.
func (s *Session) CellStates(ctx context.Context, pipeline, key, env string, sources map[string]string) ([]CellState, error) {
	return s.m.cellStates(ctx, s.drafts, pipeline, key, env, sources)
}

// CellStates is Session.CellStates for session id, or for a session with
// no drafts when there is no such session (a page that has not said hello
// yet, or whose session was reaped).
func (m *Manager) CellStates(ctx context.Context, id, pipeline, key, env string, sources map[string]string) ([]CellState, error) {
	if s := m.Find(id); s != nil {
		return s.CellStates(ctx, pipeline, key, env, sources)
	}
	return m.cellStates(ctx, newDraftStore(1), pipeline, key, env, sources)
}

// cellStates judges the cells with the session's drafts of env (a pin
// owner, "" for prod): those its cells made in that environment.
func (m *Manager) cellStates(ctx context.Context, drafts *draftStore, pipeline, key, env string, sources map[string]string) ([]CellState, error) {
	eng := m.cfg.Engine
	pl, err := eng.Pipeline(pipeline)
	if err != nil {
		return nil, err
	}
	stored, err := eng.StoredStates(ctx, pl.ID, key)
	if err != nil {
		return nil, err
	}
	in := judgeInput{pl: pl, stored: map[string]engine.StoredState{}, drafts: map[string]*draft{}, code: map[string]string{}}
	for _, st := range stored {
		in.stored[st.Block] = st
		if d, ok := drafts.get(DraftKey{pl.ID, st.Block, st.Partition, env}); ok {
			in.drafts[st.Block] = d
			b := pl.Block(st.Block)
			if src, ok := sources[st.Block]; ok {
				in.code[st.Block] = m.textFingerprint(pl, b, src)
			} else {
				in.code[st.Block] = m.textFingerprint(pl, b, "")
			}
		}
	}
	out := judgeCells(in)
	lookup := drafts.lookup(pl.ID, env)
	for i := range out {
		b := pl.Block(out[i].Block)
		if b == nil || b.FanOut == "" {
			continue
		}
		items, err := eng.DynamicItems(ctx, pl.ID, b.ID, out[i].Stored.Partition, lookup)
		if err != nil {
			out[i].ItemsError = err.Error()
			continue
		}
		out[i].Items = items
	}
	return out, nil
}

// textFingerprint is the fingerprint of block b with its cell file's text
// replaced by source ("" keeps the saved file), under the pipeline's
// variables now: what a draft's code is compared by.
func (m *Manager) textFingerprint(pl *project.Pipeline, b *project.Block, source string) string {
	files, err := snapshot.BlockSources(m.cfg.Engine.Project().Dir, b)
	if err != nil {
		files = nil
	}
	found := false
	for i, f := range files {
		if f.Path == b.File {
			found = true
			if source != "" {
				files[i].Src = []byte(source)
			}
		}
	}
	if !found {
		files = append(files, fingerprint.File{Path: b.File, Src: []byte(source)})
	}
	return fingerprint.Block(files, pl.Variables)
}

// judgeInput is what judging the cells needs, gathered once.
type judgeInput struct {
	pl     *project.Pipeline
	stored map[string]engine.StoredState // block -> its stored output
	drafts map[string]*draft             // block -> the session's draft for its partition
	code   map[string]string             // block with a draft -> its text's fingerprint now
}

// judgeCells is the pure part of CellStates: it walks the blocks upstreams
// first, so each block sees whether its upstreams are fresh.
func judgeCells(in judgeInput) []CellState {
	order := in.pl.Order()
	byID := map[string]*CellState{}
	out := make([]CellState, 0, len(order))
	for _, b := range order {
		c := CellState{Block: b.ID, Stored: in.stored[b.ID]}
		if d := in.drafts[b.ID]; d != nil {
			c.Draft = judgeDraft(in, b, d, byID)
			c.Fresh = c.Draft.State == "current"
		} else {
			c.Fresh = c.Stored.State == "current"
			// Without a draft a downstream cell reads the published output,
			// computed from published inputs: an upstream this session
			// holds a draft of, or one that is not fresh, makes it out of date.
			for _, u := range b.Upstream {
				uc := byID[u]
				switch {
				case uc == nil || !sameInterval(in.pl, b.ID, u):
				case uc.Draft != nil:
					c.Fresh, c.Session = false, fmt.Sprintf("%s has a draft in this session; its published output was computed without it", u)
				case !uc.Fresh:
					c.Fresh, c.Session = false, fmt.Sprintf("upstream %s is not up to date", u)
				}
				if !c.Fresh {
					break
				}
			}
		}
		out = append(out, c)
		byID[b.ID] = &out[len(out)-1]
	}
	for i := range out {
		out[i].Plan = runPlan(in.pl, out[i].Block, byID)
	}
	return out
}

// judgeDraft says whether draft d of block b is older than its code or
// than what its upstreams hold now.
func judgeDraft(in judgeInput, b *project.Block, d *draft, cells map[string]*CellState) *DraftState {
	ds := &DraftState{At: d.at, Rows: d.table.Len(), Item: d.meta.item, State: "current"}
	stale := func(cause, reason string) *DraftState {
		ds.State, ds.Cause, ds.Reason = "stale", cause, reason
		return ds
	}
	if d.meta.code != in.code[b.ID] {
		return stale(CauseCode, "its code or a variable changed since this draft")
	}
	// The code's fingerprint leaves out the wiring: a draft that read other
	// upstreams, or the same ones as other parameters, is not what the cell
	// computes now.
	if read := originBlocks(d.meta.origins); !slices.Equal(read, b.Upstream) {
		return stale(CauseUpstream, fmt.Sprintf("its upstreams are now %s; this draft read %s", listOrNone(b.Upstream), listOrNone(read)))
	}
	for _, o := range d.meta.origins {
		u := cells[o.Block]
		if u == nil {
			continue
		}
		ud := in.drafts[o.Block]
		switch {
		case o.Draft && ud == nil:
			return stale(CauseUpstream, fmt.Sprintf("it read a draft of %s that this session no longer holds", o.Block))
		case o.Draft && o.DraftAt != nil && !ud.at.Equal(*o.DraftAt):
			return stale(CauseUpstream, fmt.Sprintf("%s has a newer draft than the one it read", o.Block))
		case !o.Draft && ud != nil && sameInterval(in.pl, b.ID, o.Block):
			return stale(CauseUpstream, fmt.Sprintf("%s has a draft now; it read published data", o.Block))
		case !o.Draft && u.Stored.Version != 0 && o.Versions != nil && o.Versions[u.Stored.Partition] != 0 && o.Versions[u.Stored.Partition] != u.Stored.Version:
			return stale(CauseUpstream, fmt.Sprintf("%s is now published v%d (it read v%d)", o.Block, u.Stored.Version, o.Versions[u.Stored.Partition]))
		}
		if !u.Fresh {
			return stale(CauseUpstreamStale, fmt.Sprintf("upstream %s is not up to date", o.Block))
		}
	}
	return ds
}

// originBlocks lists the upstream blocks a draft read, in parameter order.
func originBlocks(origins []engine.InputOrigin) []string {
	out := make([]string, len(origins))
	for i, o := range origins {
		out[i] = o.Block
	}
	return out
}

func listOrNone(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

// Draft staleness causes (the stored output's are engine.Cause*).
const (
	CauseCode          = engine.CauseCode
	CauseUpstream      = engine.CauseUpstream
	CauseUpstreamStale = engine.CauseUpstreamStale
)

func sameInterval(pl *project.Pipeline, a, b string) bool {
	ba, bb := pl.Block(a), pl.Block(b)
	return ba != nil && bb != nil && ba.Partitions.Interval == bb.Partitions.Interval
}

// runPlan is "Run with upstream" for target: its ancestors, upstreams
// first, that are not fresh or sit below one that runs, then target. Only
// ancestors whose drafts feed the target's partition count (the same
// interval): a weekly cell reads its daily upstreams published.
func runPlan(pl *project.Pipeline, target string, cells map[string]*CellState) []string {
	tb := pl.Block(target)
	if tb == nil {
		return []string{target}
	}
	anc := map[string]bool{}
	var walk func(id string)
	walk = func(id string) {
		for _, u := range pl.Block(id).Upstream {
			ub := pl.Block(u)
			if ub == nil || anc[u] || ub.Partitions.Interval != tb.Partitions.Interval {
				continue
			}
			anc[u] = true
			walk(u)
		}
	}
	walk(target)
	runs := map[string]bool{}
	var plan []string
	for _, b := range pl.Order() {
		if !anc[b.ID] {
			continue
		}
		c := cells[b.ID]
		run := c == nil || !c.Fresh
		for _, u := range b.Upstream {
			run = run || runs[u]
		}
		if run {
			runs[b.ID] = true
			plan = append(plan, b.ID)
		}
	}
	return append(plan, target)
}
