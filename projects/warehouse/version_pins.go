package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// Pin keeps versions from retention on behalf of owner until Unpin (or a
// SwitchBatch releasing owner's pins).
func (w *Warehouse) Pin(ctx context.Context, owner string, refs []VersionRef) error {
	if owner == "" || len(refs) == 0 {
		return nil
	}
	err := w.write(ctx, func(tx *writeTx) error {
		for _, r := range refs {
			tx.pin(owner, r)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("pin %d versions for %s: %w", len(refs), owner, err)
	}
	return nil
}

// pin records a pin, written when the transaction flushes.
func (tx *writeTx) pin(owner string, r VersionRef) {
	tx.batch.pins = append(tx.batch.pins, pinRow{owner: owner, ref: r})
	tx.w.guarded[partKey{r.Product, r.Partition}] = true
}

// Unpin releases every pin of owner, and its code credits
// (version_credit.go).
func (w *Warehouse) Unpin(ctx context.Context, owner string) error {
	err := w.write(ctx, func(tx *writeTx) error {
		if err := tx.exec(`DELETE FROM _strata.code_credits WHERE owner = ?`, owner); err != nil {
			return err
		}
		return tx.exec(`DELETE FROM _strata.pins WHERE owner = ?`, owner)
	})
	if err != nil {
		return fmt.Errorf("unpin %s: %w", owner, err)
	}
	return nil
}

// releasePins deletes the pins owner holds in parts, in one statement;
// nothing when owner is "".
func (tx *writeTx) releasePins(owner string, parts []partKey) error {
	if owner == "" || len(parts) == 0 {
		return nil
	}
	var list strings.Builder
	for i, k := range parts {
		if i > 0 {
			list.WriteString(", ")
		}
		fmt.Fprintf(&list, "(%s, %s)", quoteLiteral(k.product), quoteLiteral(k.partition))
	}
	// A join, not IN over a list of tuples (compared pairwise).
	err := tx.exec(`DELETE FROM _strata.pins USING (VALUES ` + list.String() + `) AS s(p, q)
		WHERE owner = ` + quoteLiteral(owner) + ` AND product = s.p AND partition = s.q`)
	if err != nil {
		return fmt.Errorf("release pins of %s: %w", owner, err)
	}
	return nil
}

// protectedVersions are the versions of a partition retention must keep
// besides the current one: pinned ones, and those a logged switch replaced
// while the version it switched to is still current. It asks the catalog
// only for partitions a pin or switch ever touched.
func (tx *writeTx) protectedVersions(product, partition string, current int) (map[int]bool, error) {
	if !tx.w.guarded[partKey{product, partition}] {
		return nil, nil
	}
	out := map[int]bool{}
	for _, v := range tx.batch.pendingPins(product, partition) {
		out[v] = true
	}
	rows, err := tx.query(`SELECT version FROM _strata.pins WHERE product = $1 AND partition = $2
		UNION ALL SELECT from_version FROM _strata.switch_log
		WHERE product = $1 AND partition = $2 AND reverted_at IS NULL AND to_version = $3`, product, partition, current)
	if err != nil {
		return nil, fmt.Errorf("protected versions of %s partition %s: %w", product, partition, err)
	}
	defer rows.Close()
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out[v] = true
	}
	return out, rows.Err()
}

// loadGuarded reads which partitions have pins or logged switches.
func loadGuarded(ctx context.Context, q querier) (map[partKey]bool, error) {
	rows, err := q.QueryContext(ctx, `SELECT DISTINCT product, partition FROM _strata.pins
		UNION SELECT DISTINCT product, partition FROM _strata.switch_log WHERE reverted_at IS NULL`)
	if err != nil {
		return nil, fmt.Errorf("load pins: %w", err)
	}
	defer rows.Close()
	out := map[partKey]bool{}
	for rows.Next() {
		var k partKey
		if err := rows.Scan(&k.product, &k.partition); err != nil {
			return nil, err
		}
		out[k] = true
	}
	return out, rows.Err()
}

// PinnedVersion is a version an owner pinned, with its partition's bounds
// and current version.
type PinnedVersion struct {
	VersionRef
	Start   time.Time `json:"start"`
	End     time.Time `json:"end"`
	Current int       `json:"current"` // the partition's current version now (0: none)
	Rows    int64     `json:"rows"`
}

// Pinned lists the newest version owner pinned in each partition, by
// product and partition start.
func (w *Warehouse) Pinned(ctx context.Context, owner string) ([]PinnedVersion, error) {
	return w.pinned(ctx, owner, "", "")
}

// PinnedIn is Pinned for one partition of one product: the staged version
// there (found false when owner pinned none), without listing the rest.
// One partition's row diff of a five-year backfill looks it up among 14,000
// pins; reading them all into Go took most of the request.
func (w *Warehouse) PinnedIn(ctx context.Context, owner, product, partition string) (PinnedVersion, bool, error) {
	out, err := w.pinned(ctx, owner, product, partition)
	if err != nil || len(out) == 0 {
		return PinnedVersion{}, false, err
	}
	return out[0], true, nil
}

// pinned reads owner's pins, of one product's partition when product is
// not empty.
func (w *Warehouse) pinned(ctx context.Context, owner, product, partition string) ([]PinnedVersion, error) {
	var out []PinnedVersion
	where, args := "p.owner = ?", []any{owner}
	if product != "" {
		where += " AND p.product = ? AND p.partition = ?"
		args = append(args, product, partition)
	}
	err := w.readTx(ctx, func(conn *sql.Conn) error {
		rows, err := conn.QueryContext(ctx, `SELECT v.product, v.partition, max(v.version), arg_max(v.partition_start, v.version),
				arg_max(v.partition_end, v.version), arg_max(v.row_count, v.version), coalesce(any_value(c.version), 0)
			FROM _strata.pins p
			JOIN _strata.versions v ON v.product = p.product AND v.partition = p.partition AND v.version = p.version
			LEFT JOIN _strata.current c ON c.product = p.product AND c.partition = p.partition
			WHERE `+where+`
			GROUP BY v.product, v.partition
			ORDER BY v.product, 4, v.partition`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var p PinnedVersion
			if err := rows.Scan(&p.Product, &p.Partition, &p.Version, &p.Start, &p.End, &p.Rows, &p.Current); err != nil {
				return err
			}
			p.Start, p.End = p.Start.UTC(), p.End.UTC()
			out = append(out, p)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("versions pinned by %s: %w", owner, err)
	}
	return out, nil
}
