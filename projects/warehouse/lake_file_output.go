package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/secrets"
)

// Workers write, the coordinator commits. On a DuckLake whose data is a
// folder every machine mounts, a worker writes a block's output as one
// Parquet file in the storage table's folder itself (WriteLakeFile) and
// sends the coordinator only what the commit needs (WrittenFile). The
// commit registers the file with ducklake_add_data_files in the same
// transaction that records and publishes the version, so compare-and-set,
// atomic publish per partition, the group commit and recovery after a kill
// are those of any publish: a file whose commit never happened is not in
// the catalog, and the orphan sweep at Open deletes it
// (lake_maintenance.go).
//
// The storage tables keep their (_partition, _version) columns, so the file
// must hold the version number before the commit assigns it: the
// coordinator guesses it when it dispatches (FileSink) — the partition's
// last version plus one, right unless another write of the same partition
// commits in between — and a commit that assigns another number copies the
// file's rows under the right one instead (correct, only slower; the file
// is then an orphan). Measured with DuckDB 1.5.5's ducklake: files whose
// _partition or _version columns are missing cannot be registered
// (allow_missing and hive_partitioning both fail with "Invalid unicode"), so
// the number cannot be left out of the file.

// DefaultFileMinRows is the smallest output a worker writes as a file. A
// file costs the commit a registration (DuckLake reads its footer and
// records its column statistics), while the rows of the outputs a group
// commit gathers go into one file: measured with
// BenchmarkLakeCommitPerPartition (file catalog, 8 partitions per commit),
// 2,000-row outputs cost the coordinator 9.2 ms per partition as rows and
// 11.2 ms as files, 20,000-row outputs 30.1 ms as rows and 12.2 ms as files,
// 100,000-row outputs 79 ms and 10 ms.
const DefaultFileMinRows = 5000

// FileSink is where a worker may write one output itself.
type FileSink struct {
	DataPath  string // the lake's data folder, absolute
	Product   string
	Partition string
	Version   int // the version the commit is expected to give it
	// MinRows: a smaller output comes back as a table (DefaultFileMinRows).
	MinRows int
	// S3 is how to reach an S3 data path, without its key; nil for a
	// folder (lake_s3_files.go).
	S3 *LakeS3
	// Key is the S3 data path's key, filled in by the writer once it has
	// asked for it (never sent with the sink).
	Key *secrets.S3Values
}

// WrittenFile is an output a worker wrote: what the commit registers.
type WrittenFile struct {
	Path      string
	Rows      int64
	Bytes     int64
	Hash      string // content_hash.go, computed by the writer
	Schema    []sdk.Field
	Partition string
	Version   int
}

// lastVersions remembers each partition's last committed version number
// outside the writer's lock, so a dispatch can guess the next without
// waiting for a commit in progress.
type lastVersions struct {
	mu sync.Mutex
	m  map[partKey]int
}

func (l *lastVersions) note(k partKey, last int) {
	l.mu.Lock()
	if l.m == nil || len(l.m) > maxCachedPartitions {
		l.m = map[partKey]int{}
	}
	l.m[k] = last
	l.mu.Unlock()
}

func (l *lastVersions) get(k partKey) (int, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	v, ok := l.m[k]
	return v, ok
}

// FileSink says whether a worker may write product's output for partition
// itself, and where: on a DuckLake whose data is a local or mounted folder,
// or a bucket whose key comes from a named s3 secret (the worker asks for
// it sealed). basedOn is the partition's current version as the caller planned it (0:
// unknown or none), the guess when this process has not written the
// partition yet.
func (w *Warehouse) FileSink(product, partition string, basedOn int) (FileSink, bool) {
	lb, ok := w.backend.(*lakeBackend)
	if !ok || w.readOnly {
		return FileSink{}, false
	}
	dp, s3 := lb.opts.DataPath, lb.lakeS3()
	if isURL(dp) {
		if s3 == nil {
			return FileSink{}, false
		}
	} else {
		var err error
		if dp, err = filepath.Abs(dp); err != nil {
			return FileSink{}, false
		}
	}
	last, ok := w.last.get(partKey{product, partition})
	if !ok {
		last = basedOn
	}
	minRows := lb.opts.FileMinRows
	if minRows <= 0 {
		minRows = DefaultFileMinRows
	}
	return FileSink{DataPath: dp, Product: product, Partition: partition, Version: last + 1, MinRows: minRows, S3: s3}, true
}

// fileWriter is the in-memory DuckDB a worker writes (and reads) Parquet with, opened
// on first use and kept for the process.
var fileWriter struct {
	once sync.Once
	db   *sql.DB
	err  error
}

// fileDB is the in-memory DuckDB that writes and reads workers' files.
func fileDB() (*sql.DB, error) {
	fileWriter.once.Do(func() { fileWriter.db, fileWriter.err = sql.Open("duckdb", "") })
	if fileWriter.err != nil {
		return nil, fmt.Errorf("open the DuckDB that writes and reads Parquet: %w", fileWriter.err)
	}
	return fileWriter.db, nil
}

// WriteLakeFile writes t as the rows of version s.Version of s.Partition,
// in the storage table's folder under s.DataPath (as the lake lays out its
// own files, so the catalog keeps the path relative): first under a
// temporary name, then renamed, so no reader or commit ever sees half a
// file. An empty table, or one below s.MinRows, writes nothing (nil, nil):
// it travels back as a table. In a bucket (s.DataPath s3://…, s.Key the
// key) the file is written under its final name: an S3 upload appears
// whole or not at all.
func WriteLakeFile(ctx context.Context, s FileSink, t *sdk.Table) (*WrittenFile, error) {
	if t == nil || t.Len() == 0 || t.Len() < s.MinRows {
		return nil, nil
	}
	if err := validateProduct(s.Product); err != nil {
		return nil, err
	}
	schema, err := tableSchema(t)
	if err != nil {
		return nil, err
	}
	if isURL(s.DataPath) {
		return writeS3File(ctx, s, t, schema)
	}
	db, err := fileDB()
	if err != nil {
		return nil, err
	}
	// The data folder must be there already (the shared folder, mounted):
	// one created here would be this machine's alone, and its file could
	// not be committed.
	if fi, err := os.Stat(s.DataPath); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("the lake's data folder %s is not mounted here", s.DataPath)
	}
	dir := filepath.Join(s.DataPath, catalogSchema, storageTableName(s.Product, schema))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("write the output of %s partition %s: %w", s.Product, s.Partition, err)
	}
	name := fileName(s)
	path := filepath.Join(dir, name)
	tmp := filepath.Join(dir, "."+name+".tmp")
	if _, err := copyToParquet(ctx, db, s, t, schema, tmp); err != nil {
		os.Remove(tmp)
		return nil, fmt.Errorf("write the output of %s partition %s as Parquet: %w", s.Product, s.Partition, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return nil, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	return &WrittenFile{Path: path, Rows: int64(t.Len()), Bytes: fi.Size(), Hash: contentHash(t, schema), Schema: schema,
		Partition: s.Partition, Version: s.Version}, nil
}

// fileName is the name a worker gives an output's file: unique to this
// process and write, and starting strata- (how the catalog tells workers'
// files from DuckLake's own).
func fileName(s FileSink) string {
	return fmt.Sprintf("strata-%s-v%d-%d-%d.parquet", safeFileName(s.Partition), s.Version, os.Getpid(), nextHandle.Add(1))
}

// copyToParquet writes t as the rows of s's version of its partition to
// dest, with db, and returns the file's size (as the writer counted it:
// no second request to a bucket to ask).
func copyToParquet(ctx context.Context, db *sql.DB, s FileSink, t *sdk.Table, schema []sdk.Field, dest string) (int64, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	if err := registerTableSource(conn); err != nil {
		return 0, fmt.Errorf("register %s: %w", tableSourceFunc, err)
	}
	h, release := handOver(t)
	defer release()
	cols := make([]string, 0, len(schema)+2)
	cols = append(cols, quoteLiteral(s.Partition)+"::VARCHAR AS "+colPartition, fmt.Sprintf("%d::INTEGER AS %s", s.Version, colVersion))
	for _, f := range schema {
		cols = append(cols, fmt.Sprintf("CAST(%s AS %s) AS %s", quoteIdent(f.Name), duckType(f), quoteIdent(f.Name)))
	}
	q := fmt.Sprintf("COPY (SELECT %s FROM %s(%d)) TO %s (FORMAT parquet, RETURN_STATS)", strings.Join(cols, ", "), tableSourceFunc, h, quoteLiteral(dest))
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var size int64
	if rows.Next() {
		names, err := rows.Columns()
		if err != nil {
			return 0, err
		}
		vals := make([]any, len(names))
		ptrs := make([]any, len(names))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return 0, err
		}
		for i, n := range names {
			if n != "file_size_bytes" {
				continue
			}
			switch v := vals[i].(type) {
			case int64:
				size = v
			case uint64:
				size = int64(v)
			}
		}
	}
	return size, rows.Err()
}

func safeFileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 || r == '=' || r == ' ' {
			return '_'
		}
		return r
	}, s)
}

// addFile records a worker's file as the rows of version of o's partition
// inside the transaction: registered as it is when the file holds that
// version, its rows copied under the right number when another write of the
// partition took the one guessed.
func (tx *writeTx) addFile(table string, o *preparedOutput, version int) error {
	f := o.File
	lb, ok := tx.w.backend.(*lakeBackend)
	if !ok {
		return errors.New("an output written as a file needs the DuckLake warehouse")
	}
	if f.Rows == 0 {
		return nil
	}
	if err := lb.holds(f.Path); err != nil {
		return err
	}
	if f.Version == version && f.Partition == o.Partition {
		// Registered when the transaction flushes, every file of a table in
		// one call: measured a third cheaper per file than one call each.
		if tx.files == nil {
			tx.files = map[string][]string{}
		}
		tx.files[table] = append(tx.files[table], f.Path)
		return nil
	}
	tx.w.statements.Add(1)
	tx.w.filesCopied.Add(1)
	q := fmt.Sprintf("INSERT INTO %s SELECT %s, %d, * EXCLUDE (%s, %s) FROM read_parquet(%s)",
		qualified(table), quoteLiteral(o.Partition), version, colPartition, colVersion, quoteLiteral(f.Path))
	if _, err := tx.conn.ExecContext(tx.ctx, q); err != nil {
		return fmt.Errorf("copy the rows of the output file %s: %s", f.Path, lb.mask(err.Error()))
	}
	return nil
}

// holds says whether a worker's file is inside the lake's data path: the
// coordinator registers no file elsewhere.
func (l *lakeBackend) holds(path string) error {
	dp := l.opts.DataPath
	if isURL(dp) {
		if !underDataPath(dp, path) {
			return fmt.Errorf("output file %s is not under the lake's data path %s", path, dp)
		}
		return nil
	}
	dp, err := filepath.Abs(dp)
	if err != nil {
		return err
	}
	if rel, err := filepath.Rel(dp, path); err != nil || strings.HasPrefix(rel, "..") || !filepath.IsAbs(path) {
		return fmt.Errorf("output file %s is not under the lake's data folder %s", path, dp)
	}
	return nil
}

// flushFiles registers the files queued by addFile, one call per table.
// Literals: ducklake's table function takes no parameters, and a prepared
// statement per list of files would fill the statement cache.
func (tx *writeTx) flushFiles() error {
	if len(tx.files) == 0 {
		return nil
	}
	tables := make([]string, 0, len(tx.files))
	for t := range tx.files {
		tables = append(tables, t)
	}
	sort.Strings(tables)
	for _, table := range tables {
		paths := tx.files[table]
		lits := make([]string, len(paths))
		for i, p := range paths {
			lits[i] = quoteLiteral(p)
		}
		q := fmt.Sprintf("CALL ducklake_add_data_files(%s, %s, [%s], schema => %s)",
			quoteLiteral(LakeName), quoteLiteral(table), strings.Join(lits, ", "), quoteLiteral(catalogSchema))
		tx.w.statements.Add(1)
		if _, err := tx.conn.ExecContext(tx.ctx, q); err != nil {
			msg := err.Error()
			if lb, ok := tx.w.backend.(*lakeBackend); ok {
				msg = lb.mask(msg)
			}
			return fmt.Errorf("register %d output files in %s: %s", len(paths), table, msg)
		}
		tx.w.filesAdded.Add(int64(len(paths)))
		delete(tx.files, table)
	}
	return nil
}

// FileCommits counts the worker files this process committed: registered
// as they were, and copied under another version number than guessed.
func (w *Warehouse) FileCommits() (added, copied int64) {
	return w.filesAdded.Load(), w.filesCopied.Load()
}
