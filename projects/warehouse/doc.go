// Package warehouse stores a project's data products in one DuckDB file:
// partitioned, versioned tables, the catalog that describes them, and a view
// per product that users query by name. It knows sdk.Table and DuckDB; it
// knows nothing of pipelines, runs, HTTP or the kernel. Run state and other
// packages that need tables in the same file get the *sql.DB from DB().
//
// # One writer
//
// DuckDB allows one process to write a database file, and inside that process
// it answers concurrent UPDATEs of one row with conflicts. Open therefore takes
// an exclusive flock on "<path>.lock" (holding the owner's pid) before it
// touches the file, so a second `strata` command fails at once with a message
// naming the pid instead of hanging or fighting over the file, and every write
// of a Warehouse goes through one mutex and one dedicated connection. Reads use
// the connection pool and run concurrently with each other and with the writer
// (DuckDB's MVCC gives each read a committed snapshot).
//
// # Storage layout
//
//	_strata.meta        key/value: layout version
//	_strata.versions    one row per kept version of (product, partition):
//	                    bounds, version number, run id, code hash, upstream
//	                    versions read (JSON), row count, schema (JSON),
//	                    created_at, the storage table holding its rows, and
//	                    is_current (at most one per partition)
//	_strata.current     view: (product, partition) -> current version
//	_strata.discarded   (product, partition) -> highest discarded version number
//	_strata.storage     storage tables: name, product, schema (JSON)
//	_strata."<product>__<schema hash>"
//	                    rows of every version with that exact schema, tagged
//	                    with _partition and _version
//	main."<product>"    view: current rows of all partitions, with _partition
//	_strata.overlays    overlay schemas (an environment's): name -> pin owner
//	<overlay>."<product>"
//	                    view: the owner's pinned version where it has one,
//	                    the current one elsewhere (view_overlay.go)
//
// Why one physical table per (product, schema) rather than one per version or
// one per product:
//
//   - A table per version would mean thousands of tables for a daily product
//     kept for years with a few versions each; DuckDB's catalog and every view
//     over them would grow without bound, and creating a table costs more than
//     appending to one. Versions that share a schema share a table, so a
//     backfill of 1,826 days adds rows, not tables.
//   - A single table per product cannot hold versions with different columns.
//     A schema change (a column added, removed, renamed or retyped) starts a
//     new table named by the hash of the new schema; older versions stay in
//     their table, readable exactly as they were written. Reads and the view
//     union the tables by column name, filling missing columns with NULL and
//     casting a column whose type differs between schemas to a common type
//     (DOUBLE for int64 with float64, VARCHAR otherwise).
//   - Rows carry (_partition, _version) so that publishing is an append and
//     switching, rolling back or promoting a version is an update of two
//     catalog flags; nothing is copied. A new version is inserted already
//     current, so publishing a new partition writes one catalog row. Retention deletes the catalog rows of
//     versions that fall out of the window at once and their rows in
//     batches (no read finds rows but through the catalog: orphan_sweep.go),
//     and drops a storage table once no version lives in it.
//   - The catalog lives in the same file and the same transactions as the
//     rows, so a version is visible exactly when its catalog row, its rows and
//     its current flag are: Publish writes every output of a pipeline run
//     (inserted from the strata_rows table function, which hands DuckDB the
//     table's columns a vector at a time inside the connection's open
//     transaction: see table_source.go), assigns version numbers, switches
//     current flags and applies retention, then commits once. The catalog
//     rows, flags and deletions of the whole transaction are written just
//     before COMMIT in one statement per kind (catalog_pending.go). A crash
//     before COMMIT leaves nothing; DuckDB's write-ahead log makes the commit
//     itself atomic.
//   - A version number is never handed out twice, so lineage that names "v4"
//     always means the same rows: the next number follows the newest kept
//     version (retention never removes the newest) or, when Discard removed
//     the newest, the number recorded in _strata.discarded.
//   - The view is the user's interface (the DuckDB CLI, SQL blocks): it joins
//     each storage table to _strata.current and hides _version. It is rebuilt
//     in the writing transaction whenever the set of storage tables of the
//     product changes.
//   - Layout 1 kept the current pointers in a table; Open migrates such a
//     file in one transaction (catalog_schema.go).
//
// Everything internal lives in the _strata schema so that the main schema,
// which users see first, holds only product views (and whatever run state or
// users add). Product names are identifiers (letters, digits, underscore) and
// must differ from each other in more than case, since DuckDB resolves names
// case-insensitively.
package warehouse
