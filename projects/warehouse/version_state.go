package warehouse

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// A block's incremental state (sdk.State: the cursor of a source read
// "after the last id") is stored with the version it publishes, in the
// publish's transaction: the state and the rows commit together or not at
// all. Which state the next run starts from is the one of the product's
// latest current version (by creation, across partitions): a failed
// attempt published nothing, so its state never counts; a kept-aside or
// staged version is not current, so its state counts only once it is
// promoted; a rollback makes an older version current, so the state
// rewinds with the data. A state is one JSON object of strings.
//
// Rows of versions that retention drops stay behind until PruneLedgers
// (ledger_prune.go) deletes them when a backfill ends: no read can reach
// them, since it joins the versions that exist.
var stateDDL = []string{
	`CREATE TABLE IF NOT EXISTS _strata.version_state (
		product   VARCHAR NOT NULL,
		partition VARCHAR NOT NULL,
		version   INTEGER NOT NULL,
		state     JSON NOT NULL,
		PRIMARY KEY (product, partition, version)
	)`,
	// The state the version's run started from: JSON null when it started
	// from none, SQL NULL when the version was written before this column
	// (a replay then starts from the product's current state).
	`ALTER TABLE _strata.version_state ADD COLUMN IF NOT EXISTS start_state JSON`,
}

const insertStateSQL = `INSERT OR REPLACE INTO _strata.version_state (product, partition, version, state, start_state) VALUES (?, ?, ?, ?, ?)`

// writeState records o's state for its new version inside the transaction,
// with the state its run started from. A run that starts from a state
// always leaves one (the same, when it sets none), so a version without a
// row started from none.
func (tx *writeTx) writeState(o *preparedOutput, version int) error {
	if o.state == "" {
		return nil
	}
	tx.w.hasState.Store(stateSome) // before the commit: at worst a read asks for nothing
	if !tx.w.backend.hasKeys() {
		// No key to replace by: the row goes first (a version number is
		// never handed out twice, so there is none in practice).
		if err := tx.exec(`DELETE FROM _strata.version_state WHERE product = ? AND partition = ? AND version = ?`, o.Product, o.Partition, version); err != nil {
			return fmt.Errorf("record the block state of version %d: %w", version, err)
		}
		if err := tx.exec(strings.Replace(insertStateSQL, "INSERT OR REPLACE", "INSERT", 1), o.Product, o.Partition, version, o.state, o.start); err != nil {
			return fmt.Errorf("record the block state of version %d: %w", version, err)
		}
		return nil
	}
	if err := tx.exec(insertStateSQL, o.Product, o.Partition, version, o.state, o.start); err != nil {
		return fmt.Errorf("record the block state of version %d: %w", version, err)
	}
	return nil
}

// encodeState is the JSON of a state; "" for nil (the block has none).
func encodeState(st map[string]string) (string, error) {
	if st == nil {
		return "", nil
	}
	b, err := json.Marshal(st)
	if err != nil {
		return "", fmt.Errorf("state: %w", err)
	}
	return string(b), nil
}

// State returns the block state stored with product's latest current
// version that has one (nil: none has). Partitions count by when their
// current version was written, not by key.
func (w *Warehouse) State(ctx context.Context, product string) (map[string]string, error) {
	return w.StateIn(ctx, "", product)
}

// StateIn is State as owner (an environment) sees the product: the state
// of the latest of the versions it reads (ChosenVersion), so a run or an
// editor cell in dev starts from dev's cursor, not prod's. "" is prod.
func (w *Warehouse) StateIn(ctx context.Context, owner, product string) (map[string]string, error) {
	if some, err := w.anyState(ctx); err != nil || !some {
		return nil, err
	}
	chosen, args := ChosenVersion(owner)
	var raw string
	err := w.db.QueryRowContext(ctx, `SELECT s.state::VARCHAR FROM _strata.version_state s
		JOIN _strata.versions v ON v.product = s.product AND v.partition = s.partition AND v.version = s.version
		WHERE s.product = ? AND `+chosen+`
		ORDER BY v.created_at DESC, v.partition DESC LIMIT 1`, append([]any{product}, args...)...).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the block state of %s: %w", product, err)
	}
	out := map[string]string{}
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return nil, fmt.Errorf("read the block state of %s: %w", product, err)
	}
	return out, nil
}

// Values of Warehouse.hasState.
const (
	stateUnknown int32 = iota
	stateNone
	stateSome
)

// anyState says whether any version has a state. Every Go block's run asks
// for its state; in a warehouse where no block keeps one (most) the answer
// costs a query once per process instead of once per run. Only this
// process writes the file (warehouse_lock.go), and writeState marks it.
func (w *Warehouse) anyState(ctx context.Context) (bool, error) {
	switch w.hasState.Load() {
	case stateSome:
		return true, nil
	case stateNone:
		return false, nil
	}
	var some bool
	if err := w.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM _strata.version_state)`).Scan(&some); err != nil {
		return false, fmt.Errorf("read block states: %w", err)
	}
	if some {
		w.hasState.Store(stateSome)
	} else {
		w.hasState.CompareAndSwap(stateUnknown, stateNone)
	}
	return some, nil
}

// VersionState returns the state stored with one version (nil: none).
func (w *Warehouse) VersionState(ctx context.Context, r VersionRef) (map[string]string, error) {
	var raw string
	err := w.db.QueryRowContext(ctx, `SELECT state::VARCHAR FROM _strata.version_state
		WHERE product = ? AND partition = ? AND version = ?`, r.Product, r.Partition, r.Version).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the block state of %s: %w", r, err)
	}
	out := map[string]string{}
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return nil, fmt.Errorf("read the block state of %s: %w", r, err)
	}
	return out, nil
}
