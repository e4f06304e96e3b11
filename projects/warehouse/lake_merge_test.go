package warehouse

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// Each publish writes its own small Parquet file per product; the lake's
// maintenance merges them (ducklake_merge_adjacent_files), so the files a
// reader opens drop, while every kept version's rows, the current view and
// every version read at its recorded snapshot stay exactly as they were.
func TestLakeMergesSmallFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	lake := fileLake(t, dir)
	wh := openAt(t, filepath.Join(dir, "w.duckdb"), Options{Retention: 3, Lake: lake})
	defer wh.Close()
	for round := range 2 {
		for day := 1; day <= 8; day++ {
			publish(t, wh, "m", fmt.Sprintf("2024-03-%02d", day), bigTable(500, int64(round*100+day), false))
		}
	}
	// What a reader sees: the files of the live snapshot, every kept
	// version's rows, and the partition read at each version's snapshot.
	state := func() (int, string) {
		var files int
		if err := wh.DB().QueryRowContext(ctx, `SELECT count(*) FROM __ducklake_metadata_`+LakeName+`.ducklake_data_file WHERE end_snapshot IS NULL`).Scan(&files); err != nil {
			t.Fatal(err)
		}
		var tables []string
		rows, err := wh.DB().QueryContext(ctx, `SELECT DISTINCT storage_table FROM _strata.versions WHERE product = 'm' ORDER BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			tables = append(tables, s)
		}
		rows.Close()
		var b strings.Builder
		for _, tbl := range tables {
			var s string
			q := `SELECT list((` + colPartition + `, ` + colVersion + `, n, ids, amt) ORDER BY ` + colPartition + `, ` + colVersion + `)::VARCHAR FROM (
				SELECT ` + colPartition + `, ` + colVersion + `, count(*) AS n, sum(id) AS ids, sum(amount)::DECIMAL(18,4) AS amt FROM _strata.` + tbl + ` GROUP BY ALL)`
			if err := wh.DB().QueryRowContext(ctx, q).Scan(&s); err != nil {
				t.Fatal(err)
			}
			b.WriteString(s)
		}
		var cur string
		if err := wh.DB().QueryRowContext(ctx, `SELECT count(*) || ' ' || sum(id) || ' ' || sum(amount)::DECIMAL(18,4) FROM m`).Scan(&cur); err != nil {
			t.Fatal(err)
		}
		b.WriteString("\ncurrent " + cur)
		parts, err := wh.Partitions(ctx, "m")
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range parts {
			for _, v := range p.Versions {
				var s string
				q := fmt.Sprintf(`SELECT count(*) || ' ' || sum(id) FROM m AT (VERSION => %d) WHERE _partition = '%s'`, v.LakeSnapshot, p.Key)
				if err := wh.DB().QueryRowContext(ctx, q).Scan(&s); err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&b, "\n%s v%d at %d: %s", p.Key, v.Version, v.LakeSnapshot, s)
			}
		}
		return files, b.String()
	}
	filesBefore, before := state()
	if err := wh.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	filesAfter, after := state()
	t.Logf("16 publishes of 8 partitions: %d live data files -> %d after maintenance", filesBefore, filesAfter)
	if filesAfter*2 > filesBefore {
		t.Fatalf("maintenance left %d of %d live data files: the small files were not merged", filesAfter, filesBefore)
	}
	if after != before {
		t.Fatalf("content changed by the merge:\nbefore %s\nafter  %s", before, after)
	}
	// Once the small files are deleted (keep_snapshots later), every
	// version still reads at its snapshot: the merged file carries each
	// row's snapshots.
	onDisk, _ := parquetFiles(t, lake.DataPath)
	if _, err := wh.DB().ExecContext(ctx, `SELECT count(*) FROM ducklake_cleanup_old_files('`+LakeName+`', cleanup_all => true)`); err != nil {
		t.Fatal(err)
	}
	left, _ := parquetFiles(t, lake.DataPath)
	if _, cleaned := state(); cleaned != before || left >= onDisk {
		t.Fatalf("after the small files were deleted (%d -> %d on disk) the content reads:\n%s\nwant\n%s", onDisk, left, cleaned, before)
	}
	t.Logf("Parquet files on disk: %d after the merge, %d once the merged-away ones are deleted", onDisk, left)
}

// A table holding a file registered with ducklake_add_data_files (as a
// worker's output is) is left out of the merge, whose read of such a file
// fails an assertion in DuckDB 1.5.5's ducklake (an internal error that
// invalidates the database); the other tables still merge.
func TestLakeMaintenanceSkipsRegisteredFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	lake := fileLake(t, dir)
	wh := openAt(t, filepath.Join(dir, "w.duckdb"), Options{Lake: lake})
	defer wh.Close()
	for day := 1; day <= 3; day++ {
		publish(t, wh, "m", fmt.Sprintf("2024-03-%02d", day), bigTable(500, int64(day), false))
		publish(t, wh, "n", fmt.Sprintf("2024-03-%02d", day), bigTable(500, int64(day), false))
	}
	var tbl string
	if err := wh.DB().QueryRowContext(ctx, `SELECT any_value(storage_table) FROM _strata.versions WHERE product = 'm'`).Scan(&tbl); err != nil {
		t.Fatal(err)
	}
	added := filepath.Join(lake.DataPath, "added.parquet")
	for _, q := range []string{
		`COPY (SELECT * REPLACE ('2024-03-09' AS ` + colPartition + `) FROM _strata.` + tbl + ` WHERE ` + colPartition + ` = '2024-03-01') TO ` + quoteLiteral(added),
		`CALL ducklake_add_data_files(` + quoteLiteral(LakeName) + `, ` + quoteLiteral(tbl) + `, ` + quoteLiteral(added) + `, schema => '_strata')`,
	} {
		if _, err := wh.DB().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	live := func(product string) int64 {
		return scalar(t, wh, `SELECT count(*) FROM __ducklake_metadata_`+LakeName+`.ducklake_data_file f JOIN __ducklake_metadata_`+LakeName+`.ducklake_table t USING (table_id)
			WHERE f.end_snapshot IS NULL AND t.end_snapshot IS NULL AND t.table_name = (SELECT any_value(storage_table) FROM _strata.versions WHERE product = ?)`, product)
	}
	m, err := wh.maintainLake(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("maintenance %+v; live files: m %d (one registered), n %d", m, live("m"), live("n"))
	if live("m") != 4 || live("n") != 1 {
		t.Fatalf("live files m %d, n %d: want m's 4 as they were, n's merged into 1", live("m"), live("n"))
	}
	if got := scalar(t, wh, `SELECT count(*) FROM _strata.`+tbl); got != 2000 {
		t.Fatalf("m's storage holds %d rows, want 2000", got)
	}
}
