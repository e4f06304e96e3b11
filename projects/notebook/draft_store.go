package notebook

import (
	"github.com/stratahq/strata/projects/tableview"
	"sync"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/engine"
)

// DraftKey names one draft: a block's output for one partition, in one
// environment. Env is the pin owner the cell ran in ("" is prod): a draft
// computed over dev's upstreams is dev's, and a cell run in prod never
// reads it as its input, nor a dev cell a draft made over prod's data.
type DraftKey struct{ Pipeline, Block, Partition, Env string }

// DraftInfo describes a draft without its table.
type DraftInfo struct {
	Pipeline  string    `json:"pipeline"`
	Block     string    `json:"block"`
	Partition string    `json:"partition"`
	At        time.Time `json:"at"`
	Rows      int       `json:"rows"`
}

type draft struct {
	table *sdk.Table
	at    time.Time
	seq   int64
	meta  draftMeta

	// The row order of the last page query (sort and filter), so paging
	// through a sorted draft sorts once.
	orderMu  sync.Mutex
	orderKey string
	order    []int
	// The column summaries of the headers, read once (a draft never changes).
	summaryMu sync.Mutex
	summary   []tableview.ColumnSummary
}

// draftMeta is what staleness needs of a draft: the fingerprint of the text
// it ran (fingerprint.Block with the pipeline's variables then), where its
// inputs came from, and the dynamic item it ran as.
type draftMeta struct {
	code    string
	origins []engine.InputOrigin
	item    string
	zone    *time.Location // the partition's zone: instants are shown in it
}

// draftStore keeps a session's drafts, at most max of them: the output of a
// successful execution replaces that cell's draft for that partition; past
// max the least recently written goes, so a session that walks through
// partitions does not grow without bound.
type draftStore struct {
	max int

	mu     sync.Mutex
	seq    int64
	drafts map[DraftKey]*draft
}

func newDraftStore(max int) *draftStore {
	return &draftStore{max: max, drafts: map[DraftKey]*draft{}}
}

func (d *draftStore) put(k DraftKey, t *sdk.Table, at time.Time, meta draftMeta) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.seq++
	d.drafts[k] = &draft{table: t, at: at, seq: d.seq, meta: meta}
	for len(d.drafts) > d.max {
		var oldest DraftKey
		var min int64 = -1
		for k, v := range d.drafts {
			if min < 0 || v.seq < min {
				oldest, min = k, v.seq
			}
		}
		delete(d.drafts, oldest)
	}
}

func (d *draftStore) get(k DraftKey) (*draft, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	v, ok := d.drafts[k]
	return v, ok
}

// lookup is the engine's view of the drafts of one pipeline in env.
func (d *draftStore) lookup(pipeline, env string) engine.DraftLookup {
	return func(block, key string) (engine.Draft, bool) {
		v, ok := d.get(DraftKey{pipeline, block, key, env})
		if !ok {
			return engine.Draft{}, false
		}
		return engine.Draft{Table: v.table, At: v.at}, true
	}
}

func (d *draftStore) list(pipeline, env string) []DraftInfo {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := []DraftInfo{}
	for k, v := range d.drafts {
		if k.Pipeline == pipeline && k.Env == env {
			out = append(out, DraftInfo{Pipeline: k.Pipeline, Block: k.Block, Partition: k.Partition, At: v.at, Rows: v.table.Len()})
		}
	}
	return out
}

// newest is the most recently written draft of a block in env, of any
// partition.
func (d *draftStore) newest(pipeline, block, env string) (*draft, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var best *draft
	for k, v := range d.drafts {
		if k.Pipeline == pipeline && k.Block == block && k.Env == env && v.table != nil && (best == nil || v.seq > best.seq) {
			best = v
		}
	}
	return best, best != nil
}
