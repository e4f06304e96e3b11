package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// A replay (projects/engine) computes a stored version again on exactly
// what its run read. The catalog records that as the version's lineage:
// the versions of each product partition read, through an upstream or a
// ctx.Product window. These read those versions back, and say which of
// them retention or a discard has removed since (the replay cannot be
// exact then, and says so, rather than read what is current instead).

// GoneVersions lists the refs that no longer exist, in the order given.
func (w *Warehouse) GoneVersions(ctx context.Context, refs []VersionRef) ([]VersionRef, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	products, keys := map[string]bool{}, map[string]bool{}
	for _, r := range refs {
		products[r.Product], keys[r.Partition] = true, true
	}
	query := `SELECT product, partition, version FROM _strata.versions WHERE product IN (` + quotedList(products) +
		`) AND partition IN (` + quotedList(keys) + `)`
	have := map[VersionRef]bool{}
	err := w.readTx(ctx, func(conn *sql.Conn) error {
		rows, err := conn.QueryContext(ctx, query)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r VersionRef
			if err := rows.Scan(&r.Product, &r.Partition, &r.Version); err != nil {
				return err
			}
			have[r] = true
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("look up recorded versions: %w", err)
	}
	var gone []VersionRef
	for _, r := range refs {
		if !have[r] {
			gone = append(gone, r)
		}
	}
	return gone, nil
}

// ReadRecorded answers a read of product's selection as a run that read
// the versions in rec (partition -> version) answered it: the recorded
// partitions the selection covers, each at its recorded version, with
// Read's columns. A partition the run did not read is not read (it did
// not exist then, or was not in the window); a recorded version that is
// gone is an error naming it. Last n counts among the recorded partitions.
func (w *Warehouse) ReadRecorded(ctx context.Context, product string, sel Selection, rec map[string]int) (*sdk.Table, error) {
	if err := sel.validate(); err != nil {
		return nil, fmt.Errorf("read %s: %w", product, err)
	}
	var out *sdk.Table
	err := w.readTx(ctx, func(conn *sql.Conn) error {
		storage, err := productTables(ctx, conn, product)
		if err != nil {
			return err
		}
		parts, err := recordedParts(ctx, conn, product, sel, rec)
		if err != nil {
			return err
		}
		if len(parts) == 0 {
			out = emptyRead(storage)
			return nil
		}
		out, err = queryTable(ctx, conn, readSQL(parts, storage, -1))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read %s as recorded: %w", product, err)
	}
	return out, nil
}

// recordedParts picks the recorded versions sel covers, by partition start.
func recordedParts(ctx context.Context, q querier, product string, sel Selection, rec map[string]int) ([]selectedPartition, error) {
	if len(rec) == 0 {
		return nil, nil
	}
	keys := map[string]bool{}
	for k := range rec {
		keys[k] = true
	}
	rows, err := q.QueryContext(ctx, `SELECT partition, version, storage_table, row_count, partition_start FROM _strata.versions
		WHERE product = ? AND partition IN (`+quotedList(keys)+`)`, product)
	if err != nil {
		return nil, err
	}
	exact := map[string]selectedPartition{}
	starts := map[string]time.Time{}
	for rows.Next() {
		var p selectedPartition
		if err := rows.Scan(&p.partition, &p.version, &p.table, &p.rows, &p.start); err != nil {
			rows.Close()
			return nil, err
		}
		starts[p.partition] = p.start
		if rec[p.partition] == p.version {
			exact[p.partition] = p
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var cand []selectedPartition
	for k, v := range rec {
		// A partition with no version left has no start to filter by: it
		// counts as selected, and so as gone.
		cand = append(cand, selectedPartition{partition: k, version: v, start: starts[k]})
	}
	sort.Slice(cand, func(i, j int) bool {
		if !cand[i].start.Equal(cand[j].start) {
			return cand[i].start.Before(cand[j].start)
		}
		return cand[i].partition < cand[j].partition
	})
	named := map[string]bool{}
	for _, k := range sel.Partitions {
		named[k] = true
	}
	var picked []selectedPartition
	for _, c := range cand {
		_, known := starts[c.partition]
		switch {
		case len(sel.Partitions) > 0 && !named[c.partition]:
			continue
		case known && !sel.From.IsZero() && c.start.Before(sel.From):
			continue
		case known && !sel.To.IsZero() && c.start.After(sel.To):
			continue
		}
		picked = append(picked, c)
	}
	if sel.Last > 0 {
		// The latest n starts, every cell of each (as resolveSelection).
		seen, cut := 0, 0
		for i := len(picked) - 1; i >= 0; i-- {
			if i == len(picked)-1 || !picked[i].start.Equal(picked[i+1].start) {
				if seen++; seen > sel.Last {
					cut = i + 1
					break
				}
			}
		}
		picked = picked[cut:]
	}
	for i, c := range picked {
		p, ok := exact[c.partition]
		if !ok {
			return nil, fmt.Errorf("%s, which the stored run read, is gone (retention or a discard removed it since): %w",
				VersionRef{Product: product, Partition: c.partition, Version: c.version}, ErrNotFound)
		}
		picked[i] = p
	}
	return picked, nil
}

// quotedList is the SQL literal list of a set of strings, sorted.
func quotedList(set map[string]bool) string {
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, quoteLiteral(s))
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
