package warehouse

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
)

// Strata's versions map onto DuckLake's snapshots without a second catalog:
// each write transaction on a lake is one snapshot, and it carries, in
// DuckLake's own commit info (set_commit_message's extra_info), the
// versions that became current in it. So "version 4 of partition p" is the
// snapshot whose commit info names it, and a plain duckdb reads the product
// as it was then:
//
//	SELECT * FROM lake.daily_metrics AT (VERSION => 812)
//
// The snapshot is where the version became current (a publish, a promote, a
// rollback to it); the newest such one is shown. A version staged and never
// current has none, and once retention expires a snapshot (keep_snapshots)
// the versions it named show none either: time travel reaches no further.

// lakeAuthor is the author of every snapshot Strata commits.
const lakeAuthor = "strata"

// lakeCurrent is one version the commit info names.
type lakeCurrent struct {
	Product   string `json:"p"`
	Partition string `json:"k"`
	Version   int    `json:"v"`
}

// noteCurrent remembers, on a lake, that a partition's current version
// changed in this transaction.
func (tx *writeTx) noteCurrent(k partKey, version int) {
	if _, ok := tx.w.backend.(*lakeBackend); !ok || version == 0 {
		return
	}
	if tx.madeCurrent == nil {
		tx.madeCurrent = map[partKey]int{}
	}
	tx.madeCurrent[k] = version
}

// tagLakeSnapshot writes the commit info of the transaction's snapshot:
// the versions current at its end that became so in it.
func (tx *writeTx) tagLakeSnapshot() error {
	var list []lakeCurrent
	for k, v := range tx.madeCurrent {
		if st := tx.parts[k]; st != nil && st.current == v {
			list = append(list, lakeCurrent{k.product, k.partition, v})
		}
	}
	if len(list) == 0 {
		return nil
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].Product != list[j].Product {
			return list[i].Product < list[j].Product
		}
		return list[i].Partition < list[j].Partition
	})
	b, err := json.Marshal(list)
	if err != nil {
		return err
	}
	q := `CALL ` + LakeName + `.set_commit_message(` + quoteLiteral(lakeAuthor) + `, 'versions made current', extra_info => ` + quoteLiteral(string(b)) + `)`
	if err := tx.exec(q); err != nil {
		return fmt.Errorf("tag the lake snapshot with its versions: %w", err)
	}
	return nil
}

// lakeSnapshots are, on a lake, the snapshots product's versions became
// current in (the newest for each), by partition and version.
func (w *Warehouse) lakeSnapshots(ctx context.Context, conn *sql.Conn, product string) (map[VersionRef]int64, error) {
	if _, ok := w.backend.(*lakeBackend); !ok {
		return nil, nil
	}
	rows, err := conn.QueryContext(ctx, `
		SELECT e.k, e.v, max(snapshot_id) FROM (
			SELECT snapshot_id, unnest(from_json(commit_extra_info, '[{"p":"VARCHAR","k":"VARCHAR","v":"INTEGER"}]')) AS e
			FROM ducklake_snapshots(`+quoteLiteral(LakeName)+`) WHERE author = ?)
		WHERE e.p = ? GROUP BY ALL`, lakeAuthor, product)
	if err != nil {
		return nil, fmt.Errorf("lake snapshots: %w", err)
	}
	defer rows.Close()
	out := map[VersionRef]int64{}
	for rows.Next() {
		r := VersionRef{Product: product}
		var snap int64
		if err := rows.Scan(&r.Partition, &r.Version, &snap); err != nil {
			return nil, err
		}
		out[r] = snap
	}
	return out, rows.Err()
}
