package engine

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// Key sets of dynamic dimensions. A dynamic dimension's values are a
// column of a product (from: {product: dim_customers, column: customer_id}):
// its distinct values over the product's current partitions. Each distinct
// set seen is recorded as a version of the key set, numbered per pipeline
// and dimension, with the product versions it was read from; a plan or a
// backfill names the version it used (BackfillSpec.KeySets), so a resume
// targets the same cells, a removed key keeps its cells' history (they are
// simply no longer targeted), and an older version can be targeted again.
// --where customer=@new selects the keys of the version used that the
// version before it did not have.

// NewKeys is the --where value that selects the keys added since the
// previous version of a dynamic dimension's key set.
const NewKeys = "@new"

const keySetsDDL = `CREATE TABLE IF NOT EXISTS _strata.key_sets (
	pipeline VARCHAR, dimension VARCHAR, version INTEGER, created_at TIMESTAMPTZ,
	product VARCHAR, col VARCHAR, keys VARCHAR, source VARCHAR)`

// KeySet is one recorded version of a dynamic dimension's key set.
type KeySet struct {
	Pipeline  string                 `json:"pipeline"`
	Dimension string                 `json:"dimension"`
	Version   int                    `json:"version"`
	CreatedAt time.Time              `json:"created_at"`
	Product   string                 `json:"product"`
	Column    string                 `json:"column"`
	Keys      []string               `json:"keys"`
	Source    []warehouse.VersionRef `json:"source,omitempty"` // the product versions it was read from
	Added     []string               `json:"added,omitempty"`  // keys the previous version did not have
	Removed   []string               `json:"removed,omitempty"`
	prev      *KeySet
}

// keySetMu serializes recording key set versions: two plans reading the
// same new key set at once record it once.
var keySetMu sync.Mutex

// resolveKeySets loads the key set of each dynamic dimension of spec (the
// version s names, else the product's current one, recorded as a new
// version when it changed), and replaces @new in s.Where. It returns s with
// KeySets filled.
func (e *Engine) resolveKeySets(ctx context.Context, pl *project.Pipeline, spec partitions.Spec, s BackfillSpec) (partitions.Spec, BackfillSpec, error) {
	dims := slices.Clone(spec.Dims)
	var used map[string]int
	var where map[string][]string
	for i, d := range dims {
		if d.Kind != partitions.Dynamic {
			if slices.Contains(s.Where[d.Name], NewKeys) {
				return spec, s, fmt.Errorf("where %s=%s: %s selects keys added to a dynamic dimension's key set; %s is static (values %s)", d.Name, NewKeys, NewKeys, d.Name, strings.Join(d.Values(), ", "))
			}
			continue
		}
		ks, err := e.keySet(ctx, pl.ID, d, s.KeySets[d.Name])
		if err != nil {
			return spec, s, err
		}
		if dims[i], err = d.WithValues(ks.Keys); err != nil {
			return spec, s, fmt.Errorf("pipeline %s: dimension %s, key set v%d: %w", pl.ID, d.Name, ks.Version, err)
		}
		if used == nil {
			used = map[string]int{}
		}
		used[d.Name] = ks.Version
		if vals := s.Where[d.Name]; slices.Contains(vals, NewKeys) {
			if where == nil {
				where = cloneWhere(s.Where)
			}
			where[d.Name] = expandNew(vals, ks)
			if len(where[d.Name]) == 0 {
				return spec, s, fmt.Errorf("where %s=%s: key set v%d of dimension %s added no key since v%d: nothing to select", d.Name, strings.Join(vals, ","), ks.Version, d.Name, ks.Version-1)
			}
		}
	}
	if used == nil {
		return spec, s, nil
	}
	spec.Dims = dims
	s.KeySets = used
	if where != nil {
		// The spec keeps @new as written (a resume re-expands it against
		// the same recorded versions); the box uses the expansion.
		s.resolvedWhere = where
	}
	return spec, s, nil
}

func cloneWhere(w map[string][]string) map[string][]string {
	out := make(map[string][]string, len(w))
	for k, v := range w {
		out[k] = slices.Clone(v)
	}
	return out
}

// expandNew replaces @new in vals by the keys ks added.
func expandNew(vals []string, ks *KeySet) []string {
	var out []string
	for _, v := range vals {
		if v != NewKeys {
			out = append(out, v)
			continue
		}
		out = append(out, ks.Added...)
	}
	return out
}

// keySet returns version v of d's key set for pipeline (0: the current one
// of its product, recorded as a new version when it differs from the last).
func (e *Engine) keySet(ctx context.Context, pipeline string, d partitions.Dim, v int) (*KeySet, error) {
	keySetMu.Lock()
	defer keySetMu.Unlock()
	if v > 0 {
		ks, err := e.recordedKeySet(ctx, pipeline, d.Name, v)
		if errors.Is(err, sql.ErrNoRows) {
			last, _ := e.recordedKeySet(ctx, pipeline, d.Name, 0)
			have := "none is recorded yet"
			if last != nil {
				have = fmt.Sprintf("the versions are 1 to %d", last.Version)
			}
			return nil, fmt.Errorf("pipeline %s: dimension %s has no key set v%d: %s", pipeline, d.Name, v, have)
		}
		return ks, err
	}
	keys, source, err := e.readKeys(ctx, d)
	if err != nil {
		return nil, fmt.Errorf("pipeline %s: dimension %s: %w", pipeline, d.Name, err)
	}
	last, err := e.recordedKeySet(ctx, pipeline, d.Name, 0)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	if last != nil && slices.Equal(last.Keys, keys) {
		return last, nil
	}
	ks := &KeySet{Pipeline: pipeline, Dimension: d.Name, Version: 1, CreatedAt: e.now().UTC(), Product: d.Product, Column: d.Column, Keys: keys, Source: source, prev: last}
	if last != nil {
		ks.Version = last.Version + 1
	}
	ks.diff()
	rawKeys, _ := json.Marshal(keys)
	rawSource, _ := json.Marshal(source)
	if _, err := e.wh.DB().ExecContext(ctx, `INSERT INTO _strata.key_sets VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		pipeline, d.Name, ks.Version, ks.CreatedAt, d.Product, d.Column, string(rawKeys), string(rawSource)); err != nil {
		return nil, fmt.Errorf("record key set v%d of dimension %s: %w", ks.Version, d.Name, err)
	}
	return ks, nil
}

// diff fills Added and Removed against the previous version.
func (ks *KeySet) diff() {
	var before []string
	if ks.prev != nil {
		before = ks.prev.Keys
	}
	for _, k := range ks.Keys {
		if !slices.Contains(before, k) {
			ks.Added = append(ks.Added, k)
		}
	}
	for _, k := range before {
		if !slices.Contains(ks.Keys, k) {
			ks.Removed = append(ks.Removed, k)
		}
	}
}

// readKeys reads the distinct values of d's column over its product's
// current partitions, sorted, and the versions read.
func (e *Engine) readKeys(ctx context.Context, d partitions.Dim) ([]string, []warehouse.VersionRef, error) {
	t, read, err := e.wh.ReadSelected(ctx, d.Product, warehouse.Selection{})
	if errors.Is(err, warehouse.ErrNotFound) {
		read, err = nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read its key set (column %s of %s): %w", d.Column, d.Product, err)
	}
	if len(read) == 0 {
		return nil, nil, fmt.Errorf("its key set is column %s of product %s, which has no current data: run the pipeline that writes %s first", d.Column, d.Product, d.Product)
	}
	col := t.Column(d.Column)
	if col == nil {
		return nil, nil, fmt.Errorf("its key set is column %s of product %s, which has no such column (columns: %s)", d.Column, d.Product, columnNames(t))
	}
	seen := map[string]bool{}
	var keys []string
	for i := range t.Len() {
		v := col.Value(i)
		if v == nil {
			continue
		}
		k := fmt.Sprint(v)
		if seen[k] {
			continue
		}
		if err := partitions.CheckValue(k); err != nil {
			return nil, nil, fmt.Errorf("column %s of %s, row %d: %w", d.Column, d.Product, i+1, err)
		}
		seen[k] = true
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, nil, fmt.Errorf("its key set, column %s of product %s, holds no value", d.Column, d.Product)
	}
	slices.Sort(keys)
	return keys, read, nil
}

// recordedKeySet reads version v (0: the latest) of a key set, with the
// version before it for Added and Removed.
func (e *Engine) recordedKeySet(ctx context.Context, pipeline, dim string, v int) (*KeySet, error) {
	q := `SELECT version, created_at, product, col, keys, source FROM _strata.key_sets WHERE pipeline = ? AND dimension = ?`
	args := []any{pipeline, dim}
	if v > 0 {
		q += ` AND version <= ?`
		args = append(args, v)
	}
	rows, err := e.wh.DB().QueryContext(ctx, q+` ORDER BY version DESC LIMIT 2`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var got []*KeySet
	for rows.Next() {
		ks := &KeySet{Pipeline: pipeline, Dimension: dim}
		var keys, source string
		if err := rows.Scan(&ks.Version, &ks.CreatedAt, &ks.Product, &ks.Column, &keys, &source); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(keys), &ks.Keys); err != nil {
			return nil, fmt.Errorf("key set v%d of dimension %s: %w", ks.Version, dim, err)
		}
		_ = json.Unmarshal([]byte(source), &ks.Source)
		got = append(got, ks)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(got) == 0 || (v > 0 && got[0].Version != v) {
		return nil, sql.ErrNoRows
	}
	if len(got) == 2 {
		got[0].prev = got[1]
	}
	got[0].diff()
	return got[0], nil
}

// KeySets lists the recorded versions of a dynamic dimension's key set,
// newest first.
func (e *Engine) KeySets(ctx context.Context, pipeline, dim string) ([]*KeySet, error) {
	keySetMu.Lock()
	defer keySetMu.Unlock()
	var out []*KeySet
	for v := 0; ; {
		ks, err := e.recordedKeySet(ctx, pipeline, dim, v)
		if errors.Is(err, sql.ErrNoRows) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, ks)
		if ks.Version <= 1 {
			return out, nil
		}
		v = ks.Version - 1
	}
}

func columnNames(t *sdk.Table) string {
	names := make([]string, len(t.Columns()))
	for i, c := range t.Columns() {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// CurrentKeySet returns the key set of pipeline's dynamic dimension dim as
// its product is now, recording it as a new version when it changed (what a
// plan does): for the new-key triggers (projects/triggers/launcher).
func (e *Engine) CurrentKeySet(ctx context.Context, pipeline, dim string) (*KeySet, error) {
	pl := e.Project().Pipelines[pipeline]
	if pl == nil {
		return nil, fmt.Errorf("no pipeline %s", pipeline)
	}
	spec, err := SpecOf(pl.Partitions)
	if err != nil {
		return nil, err
	}
	for _, d := range spec.Dims {
		if d.Name == dim && d.Kind == partitions.Dynamic {
			return e.keySet(ctx, pipeline, d, 0)
		}
	}
	return nil, fmt.Errorf("pipeline %s has no dynamic dimension %s", pipeline, dim)
}

// KeySetAt returns the recorded version v of a key set (nil, nil when
// there is none).
func (e *Engine) KeySetAt(ctx context.Context, pipeline, dim string, v int) (*KeySet, error) {
	keySetMu.Lock()
	defer keySetMu.Unlock()
	ks, err := e.recordedKeySet(ctx, pipeline, dim, v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return ks, err
}

// loadKeySets fills spec's dynamic dimensions with their current key sets
// (pipeline's), for code that iterates every cell of a time range.
func (e *Engine) loadKeySets(ctx context.Context, pipeline string, spec partitions.Spec) (partitions.Spec, error) {
	dims := slices.Clone(spec.Dims) // the caller's spec is shared
	for i, d := range dims {
		if d.Kind != partitions.Dynamic || d.Loaded() {
			continue
		}
		ks, err := e.keySet(ctx, pipeline, d, 0)
		if err != nil {
			return spec, err
		}
		if dims[i], err = d.WithValues(ks.Keys); err != nil {
			return spec, err
		}
	}
	spec.Dims = dims
	return spec, nil
}
