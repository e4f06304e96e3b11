package warehouse

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ProductInfo summarizes a product's current data.
type ProductInfo struct {
	Name            string    `json:"name"`
	Partitions      int       `json:"partitions"`       // partitions with a current version
	Rows            int64     `json:"rows"`             // rows of the current versions
	LatestPartition string    `json:"latest_partition"` // current partition with the latest start ("" if none)
	UpdatedAt       time.Time `json:"updated_at"`
}

// PartitionInfo describes one partition and its kept versions.
type PartitionInfo struct {
	Key      string        `json:"key"`
	Start    time.Time     `json:"start"` // from the newest version
	End      time.Time     `json:"end"`
	Current  int           `json:"current"` // 0 when only staged versions exist
	Versions []VersionInfo `json:"versions"`
}

// VersionInfo is one kept version: who wrote it, from what.
type VersionInfo struct {
	Version   int                       `json:"version"`
	RunID     string                    `json:"run_id"`
	CodeHash  string                    `json:"code_hash"`
	Rows      int64                     `json:"rows"`
	CreatedAt time.Time                 `json:"created_at"`
	Upstream  map[string]map[string]int `json:"upstream"`
	Inputs    []string                  `json:"inputs,omitempty"`   // the upstream products in the order the block received them
	Snapshot  string                    `json:"snapshot,omitempty"` // the pipeline version that computed it
	BasedOn   int                       `json:"based_on,omitempty"` // the current version it was planned to replace
	// LakeSnapshot is, on a DuckLake, the snapshot it became current in
	// (read it there: AT (VERSION => n)); 0 on the file (lake_snapshot.go).
	LakeSnapshot int64 `json:"lake_snapshot,omitempty"`
}

// Products lists every product that has a version, by name.
func (w *Warehouse) Products(ctx context.Context) ([]ProductInfo, error) {
	var out []ProductInfo
	err := w.readTx(ctx, func(conn *sql.Conn) error {
		rows, err := conn.QueryContext(ctx, `
			WITH cur AS (
				SELECT v.product, v.partition, v.partition_start, v.row_count, v.created_at
				FROM _strata.versions v WHERE v.is_current
			)
			SELECT p.product, count(cur.partition), coalesce(sum(cur.row_count), 0)::BIGINT,
				coalesce(arg_max(cur.partition, cur.partition_start), ''), max(cur.created_at)
			FROM (SELECT DISTINCT product FROM _strata.versions) p
			LEFT JOIN cur ON cur.product = p.product
			GROUP BY p.product
			ORDER BY p.product`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var p ProductInfo
			var updated sql.NullTime
			if err := rows.Scan(&p.Name, &p.Partitions, &p.Rows, &p.LatestPartition, &updated); err != nil {
				return err
			}
			if updated.Valid {
				p.UpdatedAt = updated.Time.UTC()
			}
			out = append(out, p)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("list products: %w", err)
	}
	return out, nil
}

// Partitions lists a product's partitions by start, each with its kept
// versions (oldest first) and its current version.
func (w *Warehouse) Partitions(ctx context.Context, product string) ([]PartitionInfo, error) {
	var out []PartitionInfo
	err := w.readTx(ctx, func(conn *sql.Conn) error {
		if err := missingProduct(ctx, conn, product); err != nil {
			return err
		}
		rows, err := conn.QueryContext(ctx, `
			SELECT v.partition, v.partition_start, v.partition_end, coalesce(c.version, 0),
				v.version, v.run_id, v.code_hash, v.row_count, v.created_at, v.upstream::VARCHAR, v.snapshot, v.based_on, v.inputs::VARCHAR
			FROM _strata.versions v
			LEFT JOIN _strata.current c ON c.product = v.product AND c.partition = v.partition
			JOIN (SELECT partition, min(partition_start) AS first_start FROM _strata.versions
				WHERE product = ? GROUP BY partition) f ON f.partition = v.partition
			WHERE v.product = ?
			ORDER BY f.first_start, v.partition, v.version`, product, product)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var key, upstream string
			var inputs sql.NullString
			var start, end time.Time
			var current int
			var v VersionInfo
			if err := rows.Scan(&key, &start, &end, &current, &v.Version, &v.RunID, &v.CodeHash, &v.Rows, &v.CreatedAt, &upstream, &v.Snapshot, &v.BasedOn, &inputs); err != nil {
				return err
			}
			v.CreatedAt = v.CreatedAt.UTC()
			if err := json.Unmarshal([]byte(upstream), &v.Upstream); err != nil {
				return fmt.Errorf("partition %s version %d: upstream %q: %w", key, v.Version, upstream, err)
			}
			if inputs.Valid {
				if err := json.Unmarshal([]byte(inputs.String), &v.Inputs); err != nil {
					return fmt.Errorf("partition %s version %d: inputs %q: %w", key, v.Version, inputs.String, err)
				}
			}
			if n := len(out); n == 0 || out[n-1].Key != key {
				out = append(out, PartitionInfo{Key: key, Current: current})
			}
			p := &out[len(out)-1]
			p.Start, p.End = start.UTC(), end.UTC() // versions ascend: the newest wins
			p.Versions = append(p.Versions, v)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		snaps, err := w.lakeSnapshots(ctx, conn, product)
		for i := range out {
			for j := range out[i].Versions {
				v := &out[i].Versions[j]
				v.LakeSnapshot = snaps[VersionRef{Product: product, Partition: out[i].Key, Version: v.Version}]
			}
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("partitions of %s: %w", product, err)
	}
	return out, nil
}

// Rollback makes an older (or any other kept) version of a partition current
// again. A version removed by retention cannot come back: the error says so
// and lists the kept ones. A version that was never current (staged by a
// review or an atomic backfill, or kept aside by a conflict) is refused with
// ErrNeverCurrent: it becomes current through its backfill's promote, which
// runs the review's checks and records the promotion.
func (w *Warehouse) Rollback(ctx context.Context, product, partition string, to int) error {
	err := w.write(ctx, func(tx *writeTx) error {
		st, err := tx.keptState(VersionRef{Product: product, Partition: partition, Version: to})
		if err != nil {
			return err
		}
		if st.current == to {
			return nil // already current: nothing was put back
		}
		if err := tx.neverCurrent(VersionRef{Product: product, Partition: partition, Version: to}); err != nil {
			return err
		}
		tx.setCurrent(st, to)
		return tx.logRollbacks([]Switch{{Product: product, Partition: partition, To: to}}, time.Now())
	})
	if err != nil {
		return fmt.Errorf("roll back %s partition %s to version %d: %w", product, partition, to, err)
	}
	return nil
}

// ErrNeverCurrent is wrapped by a rollback to a version that was never
// current: a rollback goes back to data that was read once, never forward
// past a review.
var ErrNeverCurrent = errors.New("was never current")

// neverCurrent refuses r when its catalog row says it was never current. A
// row written before the catalog recorded it (NULL) is let through, as
// before.
func (tx *writeTx) neverCurrent(r VersionRef) error {
	if err := tx.flush(); err != nil {
		return err
	}
	var ever sql.NullBool
	var run string
	err := tx.conn.QueryRowContext(tx.ctx, `SELECT ever_current, run_id FROM _strata.versions WHERE product = ? AND partition = ? AND version = ?`,
		r.Product, r.Partition, r.Version).Scan(&ever, &run)
	if err != nil {
		return err
	}
	if !ever.Valid || ever.Bool {
		return nil
	}
	return fmt.Errorf("version %d %w: run %s staged it without making it current (a review or atomic backfill, or a conflict kept aside); "+
		"a rollback goes back to a version that was current once, and a staged one becomes current only through its backfill's promote (strata backfill promote)",
		r.Version, ErrNeverCurrent, run)
}
