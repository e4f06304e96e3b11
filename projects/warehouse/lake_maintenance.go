package warehouse

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// DefaultOrphanGrace is how old a file the lake's catalog does not know
// must be before maintenance deletes it, when LakeOptions leaves
// OrphanGrace at zero: far longer than a write takes from its first file
// to its commit.
const DefaultOrphanGrace = time.Hour

// DefaultKeepSnapshots is how long a DuckLake's snapshots stay readable by
// time travel (ATTACH … (SNAPSHOT_VERSION n)) when LakeOptions leaves
// KeepSnapshots at zero.
const DefaultKeepSnapshots = 24 * time.Hour

// Strata's versions are rows in the lake's current snapshot (tagged with
// _version, catalogued in _strata.versions), so retention deletes a
// dropped version's rows there, as in the file. On a lake a DELETE only
// writes a delete file: the Parquet files still hold the rows, and every
// snapshot before the delete still references them. So after a sweep the
// lake is maintained in DuckLake's own terms:
//
//  1. files most of whose rows were deleted are rewritten
//     (ducklake_rewrite_data_files), so retention's deletes leave the disk;
//  2. small files of a table are merged into larger ones
//     (ducklake_merge_adjacent_files): each publish writes its own Parquet
//     file per product, so a backfill leaves one small file per partition.
//     The merged file keeps each row's snapshot range, so time travel
//     (a version read at its snapshot) reads the same rows as before;
//     the small files go with step 4 once no kept snapshot needs them;
//  3. snapshots older than KeepSnapshots expire (ducklake_expire_snapshots):
//     time travel reaches back that far, no further;
//  4. the files no live snapshot needs any more are deleted
//     (ducklake_cleanup_old_files), after the same grace, so a reader still
//     on an old snapshot is not cut off mid-query;
//  5. files under the data path that the catalog does not know and that
//     are older than OrphanGrace are deleted (ducklake_delete_orphaned_files):
//     the Parquet a writer killed before its commit left behind. Not all of
//     them: a file the catalog does not know may be a write still under
//     way, in this process (a commit in flight while a pool connection
//     maintains), in a worker that wrote its output's file and has not sent
//     it yet, or in another coordinator on the same lake (the warehouse lock
//     is a lock of one machine). Deleting it would commit a version whose
//     file is gone; so a file goes once it is older than any live write.
//     This runs first: it writes nothing to the catalog, so another writer's
//     commit never holds it up.
//
// Steps 1 and 2 run per table, and skip the tables holding a file
// registered by ducklake_add_data_files (a worker's output,
// lake_file_output.go): DuckDB 1.5.5's ducklake fails an assertion reading
// such a file inside a merge ("Attempted to dereference shared_ptr that is
// NULL", in DuckLakeMultiFileReader::CreateMapping), an internal error that
// invalidates the whole database. Those tables keep their files as written.
//
// Each step is its own DuckLake transaction; a failure leaves the lake as
// it was (unneeded files stay until the next run).

// LakeMaintenance is what one maintenance pass did.
type LakeMaintenance struct {
	Rewritten int // data files rewritten without their deleted rows
	Merged    int // small data files merged into larger ones
	Expired   int // snapshots expired
	Deleted   int // files deleted: old and orphaned
}

// step is one maintenance statement, which answers a count.
type step struct {
	what string
	sql  string
	n    *int
}

// maintainLake runs the steps above on a lake; a no-op on the file.
func (w *Warehouse) maintainLake(ctx context.Context) (LakeMaintenance, error) {
	var m LakeMaintenance
	lb, ok := w.backend.(*lakeBackend)
	if !ok || w.readOnly {
		return m, nil
	}
	keep := lb.opts.KeepSnapshots
	if keep <= 0 {
		keep = DefaultKeepSnapshots
	}
	cutoff := fmt.Sprintf("now() - INTERVAL '%d microseconds'", keep.Microseconds())
	grace := lb.opts.OrphanGrace
	if grace <= 0 {
		grace = DefaultOrphanGrace
	}
	orphanCutoff := fmt.Sprintf("now() - INTERVAL '%d microseconds'", grace.Microseconds())
	lake := quoteLiteral(LakeName)
	steps := []step{
		{"delete orphaned files", `SELECT count(*) FROM ducklake_delete_orphaned_files(` + lake + `, older_than => ` + orphanCutoff + `)`, &m.Deleted},
		{"expire snapshots", `SELECT count(*) FROM ducklake_expire_snapshots(` + lake + `, older_than => ` + cutoff + `)`, &m.Expired},
		{"delete unneeded files", `SELECT count(*) FROM ducklake_cleanup_old_files(` + lake + `, older_than => ` + cutoff + `)`, &m.Deleted},
	}
	tables, err := w.lakeTables(ctx)
	if err != nil {
		return m, fmt.Errorf("maintain the DuckLake: list its tables: %s", lb.mask(err.Error()))
	}
	for _, t := range tables {
		of := lake + `, ` + quoteLiteral(t.name) + `, schema => ` + quoteLiteral(t.schema)
		steps = slices.Insert(steps, len(steps)-2,
			step{"rewrite files with deleted rows of " + t.name, `SELECT coalesce(sum(files_processed), 0) FROM ducklake_rewrite_data_files(` + of + `)`, &m.Rewritten})
		if t.files > 1 {
			steps = slices.Insert(steps, len(steps)-2,
				step{"merge small files of " + t.name, `SELECT coalesce(sum(files_processed), 0) FROM ducklake_merge_adjacent_files(` + of + `)`, &m.Merged})
		}
	}
	for _, s := range steps {
		var n int
		if err := w.db.QueryRowContext(ctx, s.sql).Scan(&n); err != nil {
			return m, fmt.Errorf("maintain the DuckLake: %s: %s", s.what, lb.mask(err.Error()))
		}
		*s.n += n
	}
	return m, nil
}

// lakeTable is a live table of the lake with its live data files.
type lakeTable struct {
	schema, name string
	files        int
}

// lakeTables are the lake's live tables whose files are all DuckLake's own
// (none registered with a name mapping), read from its metadata catalog.
func (w *Warehouse) lakeTables(ctx context.Context) ([]lakeTable, error) {
	meta := quoteIdent("__ducklake_metadata_" + LakeName)
	rows, err := w.db.QueryContext(ctx, `
		SELECT s.schema_name, t.table_name, count(*)
		FROM `+meta+`.ducklake_data_file f
		JOIN `+meta+`.ducklake_table t ON t.table_id = f.table_id AND t.end_snapshot IS NULL
		JOIN `+meta+`.ducklake_schema s ON s.schema_id = t.schema_id AND s.end_snapshot IS NULL
		WHERE f.end_snapshot IS NULL
		GROUP BY ALL
		HAVING count(f.mapping_id) = 0
		ORDER BY 1, 2`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []lakeTable
	for rows.Next() {
		var t lakeTable
		if err := rows.Scan(&t.schema, &t.name, &t.files); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}
