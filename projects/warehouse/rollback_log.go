package warehouse

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// A rollback puts an older version back (or, for a backfill's partition
// that had none, no version), which is a person's decision about what a
// partition should read; the catalog alone cannot tell it from a version
// that is current because nothing newer was written. _strata.rollbacks
// records each one, in the rollback's transaction, so that automatic work
// can leave it alone: a reader's max_age refresh, which would otherwise
// recompute the partition the moment the version put back is older than
// max_age and undo the rollback behind the user's back
// (engine/product_freshness.go).
//
// The version put back keeps its created_at: a rollback does not make
// its rows younger. The table is append-only; a row counts while its
// partition's current version is still the one it put back.
var rollbackDDL = []string{
	`CREATE TABLE IF NOT EXISTS _strata.rollbacks (
		product        VARCHAR NOT NULL,
		partition      VARCHAR NOT NULL,
		version        INTEGER NOT NULL, -- 0: no version is current after it
		rolled_back_at TIMESTAMPTZ NOT NULL
	)`,
}

// logRollbacks records in tx that a rollback made each switch's To (0:
// none) the current version of its partition, in one statement however
// many partitions a backfill's rollback puts back.
func (tx *writeTx) logRollbacks(switches []Switch, at time.Time) error {
	if len(switches) == 0 {
		return nil
	}
	var c batchColumns
	for _, s := range switches {
		c.row()
		c.str("s_product", s.Product)
		c.str("s_partition", s.Partition)
		c.int("s_version", int64(s.To))
		c.time("s_at", at.UTC())
	}
	return tx.execRows(`INSERT INTO _strata.rollbacks SELECT s_product, s_partition, s_version, s_at FROM `+tableSourceFunc+`($1)`, c.table())
}

// PutBack is a rollback that made a partition's current version what it
// is now: nothing has been made current there since.
type PutBack struct {
	Version int       // 0: the rollback left no current version
	At      time.Time // when the rollback committed
}

// PutBacks returns, for each of product's partitions in keys whose current
// version (or lack of one) a rollback put there, that rollback.
func (w *Warehouse) PutBacks(ctx context.Context, product string, keys []string) (map[string]PutBack, error) {
	out := map[string]PutBack{}
	if len(keys) == 0 {
		return out, nil
	}
	if err := w.checkOpen(); err != nil {
		return nil, err
	}
	args := []any{product}
	for _, k := range keys {
		args = append(args, k)
	}
	ph := strings.TrimSuffix(strings.Repeat("?,", len(keys)), ",")
	rows, err := w.db.QueryContext(ctx, `SELECT r.partition, arg_max(r.version, r.rolled_back_at), max(r.rolled_back_at),
			coalesce(any_value(c.version), 0)
		FROM _strata.rollbacks r LEFT JOIN _strata.current c ON c.product = r.product AND c.partition = r.partition
		WHERE r.product = ? AND r.partition IN (`+ph+`) GROUP BY r.partition`, args...)
	if err != nil {
		return nil, fmt.Errorf("rollbacks of %s: %w", product, err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var p PutBack
		var current int
		if err := rows.Scan(&k, &p.Version, &p.At, &current); err != nil {
			return nil, err
		}
		if current == p.Version {
			out[k] = p
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
