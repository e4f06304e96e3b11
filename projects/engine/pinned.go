package engine

import (
	"context"
	"fmt"

	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/snapshot"
)

// pinned is a pipeline as one snapshot (a "pipeline version") has it: its
// settings and block files as they were when the snapshot was taken, read
// from .strata/snapshots/<hash>/, never from the files being edited.
type pinned struct {
	hash string
	proj *project.Project // the snapshot folder loaded as a project
	pl   *project.Pipeline
	srcs map[string]blockSource
}

// pin snapshots pipeline id as its files are on disk now, keeps the files,
// and returns the pipeline loaded from them.
func (e *Engine) pin(id string) (*pinned, error) {
	if _, err := e.Pipeline(id); err != nil {
		return nil, err
	}
	s, err := e.takeSnapshot(id)
	if err != nil {
		return nil, err
	}
	// Saved (or marked used) and loaded with no collection in between.
	e.snapMu.Lock()
	defer e.snapMu.Unlock()
	if err := s.Save(e.project().Dir); err != nil {
		return nil, err
	}
	return e.loadPinned(s.Hash, id)
}

// pinnedVersion loads pipeline id of snapshot hash, once per process.
func (e *Engine) pinnedVersion(hash, id string) (*pinned, error) {
	e.snapMu.Lock()
	defer e.snapMu.Unlock()
	return e.loadPinned(hash, id)
}

// loadPinned is pinnedVersion with snapMu held.
func (e *Engine) loadPinned(hash, id string) (*pinned, error) {
	key := hash + "/" + id
	e.mu.Lock()
	p := e.pins[key]
	e.mu.Unlock()
	if p != nil {
		return p, nil
	}
	proj, pl, err := snapshot.Open(e.project().Dir, hash, id)
	if err != nil {
		return nil, err
	}
	srcs, err := readSources(proj.Dir, pl)
	if err != nil {
		return nil, err
	}
	p = &pinned{hash: hash, proj: proj, pl: pl, srcs: srcs}
	e.mu.Lock()
	e.pins[key] = p
	e.mu.Unlock()
	return p, nil
}

// CurrentVersion is the pipeline version that pipeline id's files on disk
// make now (nothing is saved): a backfill whose version differs runs code
// that has changed since.
func (e *Engine) CurrentVersion(id string) (string, error) {
	s, err := e.takeSnapshot(id)
	if err != nil {
		return "", err
	}
	return s.Hash, nil
}

// backfillVersion is the snapshot a backfill runs ("" for one recorded
// before snapshots existed).
func (e *Engine) backfillVersion(ctx context.Context, id string) (string, error) {
	var hash string
	err := e.wh.DB().QueryRowContext(ctx, `SELECT coalesce(snapshot, '') FROM _strata.backfills WHERE backfill_id = ?`, id).Scan(&hash)
	if err != nil {
		return "", errNotFoundf("backfill %q not found", id)
	}
	return hash, nil
}

// setBackfillVersion records the snapshot a backfill runs from now on.
func (e *Engine) setBackfillVersion(ctx context.Context, id, hash string) error {
	if _, err := e.wh.DB().ExecContext(ctx, `UPDATE _strata.backfills SET snapshot = ? WHERE backfill_id = ?`, hash, id); err != nil {
		return fmt.Errorf("record pipeline version of backfill %s: %w", id, err)
	}
	return nil
}

// backfillPin is the pinned pipeline a backfill runs. A backfill recorded
// before snapshots existed is pinned to the files as they are now, once.
func (e *Engine) backfillPin(ctx context.Context, id, pipelineID string) (*pinned, error) {
	hash, err := e.backfillVersion(ctx, id)
	if err != nil {
		return nil, err
	}
	if hash == "" {
		p, err := e.pin(pipelineID)
		if err != nil {
			return nil, err
		}
		return p, e.setBackfillVersion(ctx, id, p.hash)
	}
	return e.pinnedVersion(hash, pipelineID)
}

func shortHash(h string) string { return snapshot.Short(h) }

// takeSnapshot snapshots pipeline id as its files are on disk now, judged
// with the products' recorded owners as the engine's project is.
func (e *Engine) takeSnapshot(id string) (*snapshot.Snapshot, error) {
	owners, err := e.wh.OwnerPipelines(context.Background())
	if err != nil {
		owners = nil // judged by file order, as before owners were recorded
	}
	return snapshot.TakeOwned(e.project().Dir, id, owners)
}
