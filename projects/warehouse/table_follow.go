package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Followed names the rows of one table of the _strata schema that a
// reader asks for again and again (a backfill's status: its versions, its
// run log), and that can only grow or change by commits.
type Followed struct {
	Table   string   // in the _strata schema
	Key     []string // the columns that tell one row from another
	Columns []string // the other columns read, after Key
	Where   string   // a filter of the rows, with ? for Args
	Args    []any
}

// maxFollowed bounds the queries a lake follows (about one per backfill
// whose status is read); the least recently read is dropped.
const maxFollowed = 128

// maxFollowRows bounds the rows a lake keeps of one query: a larger
// answer (a backfill of hundreds of thousands of partitions) is read whole
// every time rather than held in memory.
const maxFollowRows = 200_000

// followChangesMin is the table size (rows, as the lake's catalog counts
// them) from which reading a table's changes is worth it: a
// ducklake_table_changes read costs 10-18 ms whatever it returns, a scan
// of a small table less (1.5-6 ms for the 1,000-3,000 rows of a young
// lake's versions and run log, measured).
const followChangesMin = 100_000

// follows holds what a lake follows, and counts how it was read.
type follows struct {
	// changesMin overrides followChangesMin when set (tests).
	changesMin int64
	mu         sync.Mutex
	byQ        map[string]*followed
	full       int // reads of the whole table (a cold query, or its snapshots expired)
	diff       int // reads of only the changes since the last read
}

// followed is what one query read, at lake snapshot snap.
type followed struct {
	snap int64
	rows map[string][]any // by the key's values
	used time.Time
}

// Follow reads the rows of f.Table that match f.Where: Key's columns,
// then Columns', in no order.
//
// On the embedded file it is a plain query. On a DuckLake a plain query
// scans the whole table every time (no index there, and maintenance
// merges the files, so no file is pruned), which grows with the history.
// So a lake keeps what it read with the lake snapshot it read it at: the
// next read costs the catalog's snapshot id, and when the lake moved on,
// a scan of a small table or, of a large one (followChangesMin), only the
// table's changes since (ducklake_table_changes: inserts,
// deletes and updates, applied by key), so a status polled every 2 s costs
// the commits since the last poll. When those snapshots have expired it
// reads the table again.
func (w *Warehouse) Follow(ctx context.Context, f Followed) ([][]any, error) {
	out, err := w.FollowAll(ctx, f)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// FollowAll is Follow of several queries, the lake's snapshot read once:
// a status read asks for four.
func (w *Warehouse) FollowAll(ctx context.Context, fs ...Followed) ([][][]any, error) {
	if err := w.checkOpen(); err != nil {
		return nil, err
	}
	out := make([][][]any, len(fs))
	if _, ok := w.backend.(*lakeBackend); !ok {
		for i, f := range fs {
			rows, err := w.followQuery(ctx, len(f.Key)+len(f.Columns), false,
				`SELECT `+f.columns()+` FROM _strata.`+f.Table+` WHERE `+f.Where, f.Args...)
			if err != nil {
				return nil, fmt.Errorf("follow %s: %w", f.Table, err)
			}
			out[i] = valuesOf(rows)
		}
		return out, nil
	}
	w.follows.mu.Lock()
	defer w.follows.mu.Unlock()
	meta := quoteIdent("__ducklake_metadata_" + LakeName)
	var oldest, snap int64
	if err := w.db.QueryRowContext(ctx, `SELECT min(snapshot_id), max(snapshot_id) FROM `+meta+`.ducklake_snapshot`).Scan(&oldest, &snap); err != nil {
		return nil, fmt.Errorf("follow: the lake's snapshot: %w", err)
	}
	sizes, err := w.lakeTableRows(ctx)
	if err != nil {
		return nil, fmt.Errorf("follow: the lake's table sizes: %w", err)
	}
	least := int64(followChangesMin)
	if w.follows.changesMin > 0 {
		least = w.follows.changesMin
	}
	for i, f := range fs {
		rows, err := w.follow(ctx, f, oldest, snap, sizes[f.Table] >= least)
		if err != nil {
			return nil, fmt.Errorf("follow %s: %w", f.Table, err)
		}
		out[i] = rows
	}
	return out, nil
}

func (f Followed) columns() string {
	return strings.Join(append(append([]string(nil), f.Key...), f.Columns...), ", ")
}

func valuesOf(rows []followRow) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		out[i] = r.values
	}
	return out
}

// lakeTableRows are the row counts of the lake's _strata tables, as its
// catalog keeps them.
func (w *Warehouse) lakeTableRows(ctx context.Context) (map[string]int64, error) {
	meta := quoteIdent("__ducklake_metadata_" + LakeName)
	rows, err := w.db.QueryContext(ctx, `SELECT t.table_name, s.record_count FROM `+meta+`.ducklake_table t
		JOIN `+meta+`.ducklake_schema sc ON sc.schema_id = t.schema_id AND sc.end_snapshot IS NULL AND sc.schema_name = '_strata'
		JOIN `+meta+`.ducklake_table_stats s ON s.table_id = t.table_id
		WHERE t.end_snapshot IS NULL`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var name string
		var n sql.NullInt64
		if err := rows.Scan(&name, &n); err != nil {
			return nil, err
		}
		out[name] = n.Int64
	}
	return out, rows.Err()
}

// follow is one query of FollowAll at lake snapshot snap (oldest: the
// oldest snapshot the lake still has), under follows.mu; changes: the
// table is large enough for reading its changes to cost less than a scan.
func (w *Warehouse) follow(ctx context.Context, f Followed, oldest, snap int64, changes bool) ([][]any, error) {
	fs := &w.follows
	cols := f.columns()
	id := f.Table + "\x00" + f.Where + "\x00" + keyOf(f.Args)
	c := fs.byQ[id]
	n := len(f.Key) + len(f.Columns)
	switch {
	case c != nil && c.snap == snap:
	case changes && c != nil && c.snap < snap && oldest <= c.snap+1:
		// Every delete and update's old image, whatever it held (a row
		// that stops matching leaves), and what matches of the rest.
		q := fmt.Sprintf(`SELECT %s, change_type, coalesce(%s, false) FROM ducklake_table_changes(%s, '_strata', %s, %d, %d)
			WHERE change_type IN ('delete', 'update_preimage') OR (%s)
			ORDER BY snapshot_id, rowid, change_type = 'update_postimage'`,
			cols, f.Where, quoteLiteral(LakeName), quoteLiteral(f.Table), c.snap+1, snap, f.Where)
		ch, err := w.followQuery(ctx, n, true, q, append(append([]any(nil), f.Args...), f.Args...)...)
		if err != nil {
			return nil, err
		}
		fs.diff++
		for _, r := range ch {
			k := keyOf(r.values[:len(f.Key)])
			switch r.change {
			case "delete", "update_preimage":
				delete(c.rows, k)
			default: // insert, update_postimage
				if r.matches {
					c.rows[k] = r.values
				}
			}
		}
		c.snap = snap
	default:
		rows, err := w.followQuery(ctx, n, false,
			fmt.Sprintf(`SELECT %s FROM _strata.%s AT (VERSION => %d) WHERE %s`, cols, f.Table, snap, f.Where), f.Args...)
		if err != nil {
			return nil, err
		}
		fs.full++
		if len(rows) > maxFollowRows {
			delete(fs.byQ, id)
			return valuesOf(rows), nil
		}
		c = &followed{snap: snap, rows: make(map[string][]any, len(rows))}
		for _, r := range rows {
			c.rows[keyOf(r.values[:len(f.Key)])] = r.values
		}
		fs.keep(id, c)
	}
	c.used = time.Now()
	out := make([][]any, 0, len(c.rows))
	for _, r := range c.rows {
		out = append(out, r)
	}
	return out, nil
}

// keyOf tells rows (and queries' arguments) apart.
func keyOf(vs []any) string {
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, "%T:%v\x00", v, v)
	}
	return b.String()
}

// keep stores c, dropping the least recently read query when full.
func (fs *follows) keep(id string, c *followed) {
	if fs.byQ == nil {
		fs.byQ = map[string]*followed{}
	}
	if _, ok := fs.byQ[id]; !ok && len(fs.byQ) >= maxFollowed {
		old := ""
		for q, x := range fs.byQ {
			if old == "" || x.used.Before(fs.byQ[old].used) {
				old = q
			}
		}
		delete(fs.byQ, old)
	}
	fs.byQ[id] = c
}

// followRow is one row read, with for a change its kind and whether the
// row matches the filter.
type followRow struct {
	values  []any
	change  string
	matches bool
}

func (w *Warehouse) followQuery(ctx context.Context, n int, change bool, q string, args ...any) ([]followRow, error) {
	rows, err := w.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []followRow
	for rows.Next() {
		r := followRow{values: make([]any, n)}
		dest := make([]any, n, n+2)
		for i := range dest {
			dest[i] = &r.values[i]
		}
		var kind sql.NullString
		if change {
			dest = append(dest, &kind, &r.matches)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		r.change = kind.String
		out = append(out, r)
	}
	return out, rows.Err()
}
