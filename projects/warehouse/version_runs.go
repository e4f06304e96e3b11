package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"time"
)

// RunVersion is one version a run published, with the pipeline version
// (snapshot) that computed it: a backfill's lineage is made of these.
type RunVersion struct {
	Product   string
	Partition string
	Version   int
	RunID     string
	Snapshot  string
	CreatedAt time.Time
}

// maxRunCaches bounds the run-id prefixes whose versions a lake keeps in
// memory (one per backfill whose status is read).
const maxRunCaches = 64

// runCache is what VersionsOfRuns read of one prefix, at lake snapshot snap.
type runCache struct {
	snap int64
	rows map[versionKey]RunVersion
	used time.Time
}

type versionKey struct {
	product, partition string
	version            int
}

// runVersions holds a lake's runCaches and counts how they were filled.
type runVersions struct {
	mu     sync.Mutex
	caches map[string]*runCache
	// full counts reads of the whole versions table (a cold cache, or
	// the lake's snapshots since the cached one expired); changes the
	// reads of only the changes since the cached snapshot.
	full, changes int
}

// VersionsOfRuns are the versions, with a pipeline version recorded, of the
// runs whose id starts with prefix (a backfill's "ID:").
//
// A backfill's status reads them on every poll (the UI's every 2 s). On a
// DuckLake a plain query scans every version the warehouse ever kept (no
// index there, and maintenance merges the files, so no file is pruned):
// 7 ms and growing with the history. So a lake keeps what it read per
// prefix with the lake snapshot it read it at; the next read costs the
// catalog's snapshot id, and when the lake moved on, only the versions
// table's changes since (ducklake_table_changes): the commits since the
// last poll, not the history. When those snapshots have expired it reads
// the table again.
func (w *Warehouse) VersionsOfRuns(ctx context.Context, prefix string) ([]RunVersion, error) {
	if err := w.checkOpen(); err != nil {
		return nil, err
	}
	if _, ok := w.backend.(*lakeBackend); !ok {
		rows, err := w.runVersionsQuery(ctx, `SELECT product, partition, version, run_id, snapshot, created_at FROM _strata.versions
			WHERE starts_with(run_id, ?) AND snapshot <> ''`, prefix)
		out := make([]RunVersion, len(rows))
		for i, r := range rows {
			out[i] = r.RunVersion
		}
		return out, err
	}
	rv := &w.runs
	rv.mu.Lock()
	defer rv.mu.Unlock()
	meta := quoteIdent("__ducklake_metadata_" + LakeName)
	var oldest, snap int64
	if err := w.db.QueryRowContext(ctx, `SELECT min(snapshot_id), max(snapshot_id) FROM `+meta+`.ducklake_snapshot`).Scan(&oldest, &snap); err != nil {
		return nil, fmt.Errorf("versions of runs %s: the lake's snapshot: %w", prefix, err)
	}
	c := rv.caches[prefix]
	switch {
	case c != nil && c.snap == snap:
	case c != nil && c.snap < snap && oldest <= c.snap+1:
		ch, err := w.runVersionsQuery(ctx, fmt.Sprintf(`SELECT product, partition, version, run_id, snapshot, created_at, change_type
			FROM ducklake_table_changes(%s, '_strata', 'versions', %d, %d)
			WHERE starts_with(run_id, ?) ORDER BY snapshot_id, rowid`, quoteLiteral(LakeName), c.snap+1, snap), prefix)
		if err != nil {
			return nil, err
		}
		rv.changes++
		for _, r := range ch {
			k := versionKey{r.Product, r.Partition, r.Version}
			switch r.change {
			case "insert", "update_postimage":
				if r.Snapshot != "" {
					c.rows[k] = r.RunVersion
				} else {
					delete(c.rows, k)
				}
			case "delete":
				delete(c.rows, k)
			}
		}
		c.snap = snap
	default:
		rows, err := w.runVersionsQuery(ctx, fmt.Sprintf(`SELECT product, partition, version, run_id, snapshot, created_at
			FROM _strata.versions AT (VERSION => %d) WHERE starts_with(run_id, ?) AND snapshot <> ''`, snap), prefix)
		if err != nil {
			return nil, err
		}
		rv.full++
		c = &runCache{snap: snap, rows: make(map[versionKey]RunVersion, len(rows))}
		for _, r := range rows {
			c.rows[versionKey{r.Product, r.Partition, r.Version}] = r.RunVersion
		}
		rv.keep(prefix, c)
	}
	c.used = time.Now()
	out := make([]RunVersion, 0, len(c.rows))
	for _, r := range c.rows {
		out = append(out, r)
	}
	return out, nil
}

// keep stores c, dropping the least recently read prefix when full.
func (rv *runVersions) keep(prefix string, c *runCache) {
	if rv.caches == nil {
		rv.caches = map[string]*runCache{}
	}
	if len(rv.caches) >= maxRunCaches {
		old := ""
		for p, x := range rv.caches {
			if old == "" || x.used.Before(rv.caches[old].used) {
				old = p
			}
		}
		delete(rv.caches, old)
	}
	rv.caches[prefix] = c
}

// runVersionRow is a RunVersion with, for a change, its kind.
type runVersionRow struct {
	RunVersion
	change string
}

func (w *Warehouse) runVersionsQuery(ctx context.Context, q, prefix string) ([]runVersionRow, error) {
	rows, err := w.db.QueryContext(ctx, q, prefix)
	if err != nil {
		return nil, fmt.Errorf("versions of runs %s: %w", prefix, err)
	}
	defer rows.Close()
	withChange := strings.Contains(q, "change_type")
	var out []runVersionRow
	for rows.Next() {
		var r runVersionRow
		var snap sql.NullString
		dest := []any{&r.Product, &r.Partition, &r.Version, &r.RunID, &snap, &r.CreatedAt}
		if withChange {
			dest = append(dest, &r.change)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("versions of runs %s: %w", prefix, err)
		}
		r.Snapshot = snap.String
		out = append(out, r)
	}
	return out, rows.Err()
}
