package engine

import (
	"context"
	"sync"
)

// statusCache keeps what a backfill's status aggregates over every cell
// (its counts by latest state and the engine its runs used, from the run
// log; its lineage shares, from the catalog): for a backfill of 3.65 million cells each is a grouping of
// millions of rows, seconds on a busy machine, asked for at every status
// read while the grid's pages cost milliseconds. An entry holds while this
// process has written no run event (the store is the run log's only
// writer) and committed no change to the version catalog since (every one
// goes through the warehouse's writer, which counts them); a read-only engine, whose warehouse another
// process writes, never caches.
type statusCache struct {
	mu      sync.Mutex
	counts  map[string]cachedStatus[map[State]int]
	shares  map[string]cachedStatus[[]VersionShare]
	engines map[string]cachedStatus[string]
}

type cachedStatus[T any] struct {
	mark statusMark
	val  T
}

// statusMark is how far this process's writes had gone: the run log's
// last event number and the catalog's committed changes.
type statusMark struct{ seq, catalog int64 }

// statusMark is taken before the read it marks (and, for the run log,
// before the store's write that makes the read see every event up to it):
// a change counted after the mark invalidates the entry, so an entry never
// holds less than its mark says.
func (e *Engine) statusMark() statusMark {
	return statusMark{e.store.LastSeq(), e.wh.CatalogChanges()}
}

// cachedAggregate answers get() through the cache entry of id in m, under
// mark (statusMark, taken before anything get reads was written).
func cachedAggregate[T any](e *Engine, ctx context.Context, m *map[string]cachedStatus[T], id string, mark statusMark, get func(context.Context) (T, error)) (T, error) {
	if e.readOnly {
		return get(ctx)
	}
	c := &e.statusCache
	c.mu.Lock()
	hit, ok := (*m)[id]
	c.mu.Unlock()
	if ok && hit.mark == mark {
		return hit.val, nil
	}
	v, err := get(ctx)
	if err != nil {
		return v, err
	}
	// Stored under the mark taken before the read: a write during it
	// moves the mark on, so the next read reads again.
	c.mu.Lock()
	if *m == nil {
		*m = map[string]cachedStatus[T]{}
	}
	(*m)[id] = cachedStatus[T]{mark, v}
	c.mu.Unlock()
	return v, nil
}

// WarmStatuses reads the status of every backfill, newest first, until ctx
// ends, so that the cache holds their aggregates before a page asks: a
// server calls it once in the background when it starts (the first status
// of a 3.65-million-cell backfill groups every cell, seconds on a busy
// machine). Nothing to do for a read-only engine, which does not cache.
func (e *Engine) WarmStatuses(ctx context.Context) {
	if e.readOnly {
		return
	}
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT backfill_id FROM _strata.backfills ORDER BY created_at DESC`)
	if err != nil {
		return
	}
	var ids []string
	for rows.Next() {
		var id string
		if rows.Scan(&id) == nil {
			ids = append(ids, id)
		}
	}
	rows.Close()
	for _, id := range ids {
		if ctx.Err() != nil {
			return
		}
		_, _ = e.Backfill(ctx, id) // a status that cannot be read now is read when asked
	}
}
