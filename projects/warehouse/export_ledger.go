package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// The export ledger makes an Export block's side effect happen once per
// run of a partition. Each export gets a key (product, partition, version)
// before it starts, numbered per (product, partition); the run that asked
// (its id is deterministic for a backfill's runs, and kept by a resume)
// gets the same key back whenever it asks again: on a retry, a resume
// after a restart, a worker's redelivery. The key's row says whether the
// export completed: one that did is not run again; one that started and
// did not complete runs again under the same key, so a destination that
// upserts by the key ends with one copy.
//
// The ledger lives in the warehouse file, beside the versions, and every
// change to it commits before the export proceeds.
var exportDDL = []string{
	`CREATE TABLE IF NOT EXISTS _strata.exports (
		product      VARCHAR NOT NULL,
		partition    VARCHAR NOT NULL,
		version      INTEGER NOT NULL,
		run_id       VARCHAR NOT NULL,
		started_at   TIMESTAMPTZ NOT NULL,
		completed_at TIMESTAMPTZ,
		PRIMARY KEY (product, partition, version)
	)`,
}

// Export is one export's row in the ledger.
type Export struct {
	Key       sdk.ExportKey
	RunID     string
	Started   time.Time
	Completed time.Time // zero: not completed
}

// Done reports whether the export completed.
func (e Export) Done() bool { return !e.Completed.IsZero() }

// BeginExport returns the ledger entry of run's export of product's
// partition, creating it (with the partition's next version) when the run
// has none yet.
func (w *Warehouse) BeginExport(ctx context.Context, product, partition, runID string) (Export, error) {
	if err := validateProduct(product); err != nil {
		return Export{}, err
	}
	if err := validatePartition(partition); err != nil {
		return Export{}, err
	}
	var out Export
	err := w.write(ctx, func(tx *writeTx) error {
		e, err := scanExport(tx.conn.QueryRowContext(tx.ctx, `SELECT product, partition, version, run_id, started_at, completed_at
			FROM _strata.exports WHERE product = ? AND partition = ? AND run_id = ? ORDER BY version DESC LIMIT 1`, product, partition, runID))
		if err == nil {
			out = e
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var next int
		if err := tx.conn.QueryRowContext(tx.ctx, `SELECT coalesce(max(version), 0) + 1 FROM _strata.exports WHERE product = ? AND partition = ?`,
			product, partition).Scan(&next); err != nil {
			return err
		}
		out = Export{Key: sdk.ExportKey{Product: product, Partition: partition, Version: next}, RunID: runID, Started: time.Now().UTC().Truncate(time.Microsecond)}
		return tx.exec(`INSERT INTO _strata.exports (product, partition, version, run_id, started_at) VALUES (?, ?, ?, ?, ?)`,
			product, partition, next, runID, out.Started)
	})
	if err != nil {
		return Export{}, fmt.Errorf("export ledger: begin %s partition %s: %w", product, partition, err)
	}
	return out, nil
}

// LookupExport returns the ledger entry of key.
func (w *Warehouse) LookupExport(ctx context.Context, key sdk.ExportKey) (Export, error) {
	e, err := scanExport(w.db.QueryRowContext(ctx, `SELECT product, partition, version, run_id, started_at, completed_at
		FROM _strata.exports WHERE product = ? AND partition = ? AND version = ?`, key.Product, key.Partition, key.Version))
	if errors.Is(err, sql.ErrNoRows) {
		return Export{}, fmt.Errorf("export ledger: no export %s", key)
	}
	if err != nil {
		return Export{}, fmt.Errorf("export ledger: %s: %w", key, err)
	}
	return e, nil
}

// CompleteExport records that the export of key completed; once is
// enough (a second call keeps the first time).
func (w *Warehouse) CompleteExport(ctx context.Context, key sdk.ExportKey) error {
	err := w.write(ctx, func(tx *writeTx) error {
		res, err := tx.conn.ExecContext(tx.ctx, `UPDATE _strata.exports SET completed_at = coalesce(completed_at, ?)
			WHERE product = ? AND partition = ? AND version = ?`, time.Now().UTC().Truncate(time.Microsecond), key.Product, key.Partition, key.Version)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("no export %s in the ledger", key)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("export ledger: complete %s: %w", key, err)
	}
	return nil
}

// Exports lists the ledger entries of product's partition, oldest first.
func (w *Warehouse) Exports(ctx context.Context, product, partition string) ([]Export, error) {
	rows, err := w.db.QueryContext(ctx, `SELECT product, partition, version, run_id, started_at, completed_at
		FROM _strata.exports WHERE product = ? AND partition = ? ORDER BY version`, product, partition)
	if err != nil {
		return nil, fmt.Errorf("export ledger: %w", err)
	}
	defer rows.Close()
	var out []Export
	for rows.Next() {
		e, err := scanExport(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

func scanExport(row interface{ Scan(...any) error }) (Export, error) {
	var e Export
	var done sql.NullTime
	if err := row.Scan(&e.Key.Product, &e.Key.Partition, &e.Key.Version, &e.RunID, &e.Started, &done); err != nil {
		return Export{}, err
	}
	if done.Valid {
		e.Completed = done.Time
	}
	return e, nil
}
