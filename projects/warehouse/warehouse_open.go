package warehouse

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/stratahq/strata/projects/extensions"
)

// DefaultRetention is how many versions of a partition are kept when Options
// leaves Retention at zero.
const DefaultRetention = 3

// Options configure Open.
type Options struct {
	// Retention is how many of the newest versions of each (product,
	// partition) are kept, besides the current one (which is always kept).
	// It is applied to a partition whenever it is written (publish, stage,
	// promote), so lowering it trims older partitions only as they are
	// rewritten. Zero means DefaultRetention.
	Retention int
	// ReadOnly opens an existing file for reading only (products,
	// preview, backfill list): DuckDB's read-only mode and a shared lock
	// where the lock file can be opened, none where it cannot (a project
	// the user may read but not write). Every write answers ErrReadOnly.
	ReadOnly bool
	// FilesDir is where relative file paths in SQL (read_csv('data/x.csv'))
	// resolve, DuckDB's file_search_path; empty: the process's folder.
	FilesDir string
	// Extensions are LOADed at Open (the project's `extensions:`); one
	// that is not installed fails Open with an *extensions.MissingError.
	Extensions []string
	// Lake, when set, keeps the products in a DuckLake (lake_backend.go)
	// instead of the file at path, which then holds only the lock.
	Lake *LakeOptions
}

// ErrReadOnly answers writes to a warehouse opened with Options.ReadOnly.
var ErrReadOnly = errors.New("warehouse is open read-only")

// ErrClosed is returned by every method after Close.
var ErrClosed = errors.New("warehouse is closed")

// ErrNotFound is wrapped by errors about an unknown product, partition or
// version, so callers (the HTTP layer) can tell "no such thing" from failure.
var ErrNotFound = errors.New("not found")

// LockedError reports that another process (or another Open in this one)
// holds the warehouse.
type LockedError struct {
	Path string
	PID  int // 0 when the holder's pid could not be read
}

func (e *LockedError) Error() string {
	if e.PID == os.Getpid() {
		return fmt.Sprintf("warehouse %s is still open in this process (pid %d): an earlier Open has not been closed, or its connections are still in use", e.Path, e.PID)
	}
	holder := "another process"
	if e.PID > 0 {
		holder = fmt.Sprintf("pid %d", e.PID)
	}
	return fmt.Sprintf("warehouse %s is in use by %s (strata start or another strata command); stop it or use its API", e.Path, holder)
}

// Warehouse is one project's DuckDB file, owned by this process.
//
// Writes (Publish, Stage, Promote, Discard, Rollback) are serialized by mu and
// run on one dedicated connection, each as a single transaction; DuckDB would
// otherwise answer two transactions touching the same catalog row with a
// conflict. Reads use the pool and never take mu.
//
// Because this is the only writer of the catalog, the writer keeps what it
// needs per write in memory instead of asking DuckDB every time (a query
// costs about half a millisecond even on a tiny table): the storage tables of
// each product (mirroring _strata.storage) and the state of every partition
// it has written (versions, current, last number). Both are changed only
// under mu and only after a COMMIT succeeded, so they never show what a
// rolled-back transaction did. The writer's catalog statements are prepared
// once and reused.
type Warehouse struct {
	path      string
	backend   backend // the file or a DuckLake (storage_backend.go)
	follows   follows // what a lake follows (table_follow.go)
	retention int
	lock      *fileLock
	db        *sql.DB
	closed    atomic.Bool
	readOnly  bool
	opened    identity              // the file and lock opened (warehouse_health.go)
	broken    atomic.Pointer[error] // set once they changed: every write is refused
	// hasState says whether any version has a block state (version_state.go).
	hasState atomic.Int32
	// last and the counters serve outputs workers write (lake_file_output.go).
	last                    lastVersions
	filesAdded, filesCopied atomic.Int64
	// names are the products of storage (below) as last committed, by lower-cased
	// name: what a SQL block reads without the writer's lock
	// (sql_block_reads.go), replaced (never changed) after each commit
	// that changed storage.
	names atomic.Pointer[map[string]string]

	mu      sync.Mutex
	writer  *sql.Conn                  // nil until first write, and after a broken rollback
	stmts   map[string]*sql.Stmt       // statements prepared on writer, by SQL text
	storage map[string]*productStorage // by lower-cased product name
	parts   map[partKey]*partState     // partitions written since Open, as committed
	// complete names the products whose every partition is in parts, so a
	// partition missing there is known to be new without asking the catalog.
	complete map[string]bool
	// uncached names the products too large to load whole into parts: their
	// partitions are read one by one, without scanning the product again.
	uncached map[string]bool
	// guarded names the partitions that have pins or logged switches, whose
	// retention must ask which versions are protected (version_switch.go).
	guarded map[partKey]bool
	hook    CommitHook // run state written in every write transaction (warehouse_commit_hook.go)
	// orphans are, per storage table, the dropped versions whose rows are
	// not deleted yet (orphan_sweep.go).
	orphans map[string][]VersionRef
	// late are the partitions whose retention waits (retention_late.go).
	late map[partKey]bool
	// owners caches _strata.product_owners for the writer, by lower-cased
	// product (product_owner.go); nil until first needed.
	owners map[string]ProductOwner

	// emu guards the DuckDB extensions SQL blocks want and those loaded
	// (warehouse_extensions.go).
	emu       sync.Mutex
	extWant   []string
	extLoaded map[string]bool
	// attached are the sources SQL blocks ATTACHed (sql_attach.go).
	attached attachments
	// s3 are the s3 secrets made DuckDB secrets (sql_s3.go).
	s3 s3Secrets

	// tmu guards sharing: how many partitions run statements concurrently
	// (warehouse_threads.go).
	tmu     sync.Mutex
	sharing int

	qmu     sync.Mutex
	queue   []*writeReq  // publishes waiting for the next grouped write (warehouse_write.go)
	commits atomic.Int64 // write transactions committed since Open
	// catalogChanges counts the committed transactions that changed
	// versions rows (CatalogChanges).
	catalogChanges atomic.Int64
	// statements counts what the writer sent DuckDB since Open (each costs
	// about a millisecond whatever it does): tests hold a transaction's
	// statement count to what batching promises (catalog_pending.go).
	statements atomic.Int64
}

// Open opens (creating if needed) the warehouse at path. It fails at once with
// a *LockedError when another holder has it.
func Open(ctx context.Context, path string, opts Options) (*Warehouse, error) {
	if opts.Retention < 0 {
		return nil, fmt.Errorf("open warehouse %s: retention %d is negative (want 1 or more, 0 for the default %d)", path, opts.Retention, DefaultRetention)
	}
	if opts.Retention == 0 {
		opts.Retention = DefaultRetention
	}
	if path == "" {
		return nil, errors.New("open warehouse: empty path")
	}
	if opts.Lake != nil {
		if err := checkLake(opts.Lake); err != nil {
			return nil, fmt.Errorf("open warehouse %s: %w", path, err)
		}
	}
	if dir := filepath.Dir(path); dir != "" {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("open warehouse %s: directory %s does not exist", path, dir)
		}
	}
	acquire := acquireLock
	if opts.ReadOnly {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("open warehouse %s read-only: %w", path, err)
		}
		acquire = acquireSharedLock
	}
	lock, err := acquire(path)
	if err != nil {
		return nil, err
	}
	w, err := openLocked(ctx, path, opts, lock)
	if err != nil {
		lock.release()
		return nil, err
	}
	return w, nil
}

func openLocked(ctx context.Context, path string, opts Options, lock *fileLock) (*Warehouse, error) {
	_, walErr := os.Stat(path + ".wal") // before DuckDB replays (and may remove) it
	// DuckDB's checkpoint_threshold (16 MiB of WAL) is kept outside
	// backfills: a large WAL costs seconds of replay at the next open after
	// a crash. While backfills run it is 64 MiB (warehouse_threads.go): a
	// checkpoint's cost grows with the file's history, and measured by
	// thread CPU the 5-year demo backfill spent 5 s of its 22 s in them.
	//
	// Extensions are never fetched nor autoloaded at run time (offline
	// machines, reproducible builds): icu, json and parquet are compiled
	// into the driver, and the project's own are LOADed below.
	dsn := path + "?" + extensions.DSNOptions()
	if opts.ReadOnly {
		dsn += "&access_mode=read_only"
	}
	if opts.FilesDir != "" && !strings.ContainsRune(opts.FilesDir, ',') { // a comma would split DuckDB's list
		dsn += "&file_search_path=" + url.QueryEscape(opts.FilesDir)
	}
	if opts.Lake != nil {
		dsn += "&threads=" + strconv.Itoa(opts.Lake.threads()) // lake_threads.go
	}
	var be backend = duckFile{}
	if opts.Lake != nil {
		be = &lakeBackend{opts: *opts.Lake, readOnly: opts.ReadOnly}
	}
	connector, err := duckdb.NewConnector(dsn, func(c driver.ExecerContext) error {
		return be.initConn(context.Background(), c)
	})
	if err != nil {
		return nil, fmt.Errorf("open warehouse %s: %w", path, err)
	}
	db := sql.OpenDB(connector)
	// DuckDB connections are cheap but each idle one holds caches; a few
	// idle ones cover the UI's concurrent previews.
	db.SetMaxIdleConns(4)
	w := &Warehouse{
		path: path, backend: be, retention: opts.Retention, lock: lock, db: db,
		stmts: map[string]*sql.Stmt{}, parts: map[partKey]*partState{}, complete: map[string]bool{}, uncached: map[string]bool{},
		orphans: map[string][]VersionRef{}, late: map[partKey]bool{},
	}
	if err := checkWhole(ctx, db, path, walErr == nil); err != nil {
		db.Close()
		return nil, fmt.Errorf("open warehouse: %w", err)
	}
	w.extWant, w.extLoaded = slices.Clone(opts.Extensions), map[string]bool{}
	if err := w.loadExtensions(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open warehouse %s: %w", path, err)
	}
	w.readOnly = opts.ReadOnly
	if opts.ReadOnly {
		err = checkLayout(ctx, db)
	} else {
		err = w.initCatalog(ctx)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open warehouse %s: %w", path, err)
	}
	storage, err := loadStorage(ctx, db)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open warehouse %s: %w", path, err)
	}
	w.storage = storage
	w.noteNames()
	// A reader does not guard anything it writes (it writes nothing), and
	// a file from before pins has no table of them.
	if w.guarded, err = loadGuarded(ctx, db); err != nil && !opts.ReadOnly {
		db.Close()
		return nil, fmt.Errorf("open warehouse %s: %w", path, err)
	}
	if w.opened, err = openedIdentity(path, lock); err != nil {
		db.Close()
		return nil, fmt.Errorf("open warehouse %s: %w", path, err)
	}
	if !opts.ReadOnly {
		if err := w.sweepAtOpen(ctx); err != nil {
			w.dropWriter()
			db.Close()
			return nil, fmt.Errorf("open warehouse %s: %w", path, err)
		}
		// A lake also sheds what a killed writer left (lake_maintenance.go).
		if _, err := w.maintainLake(ctx); err != nil {
			w.dropWriter()
			db.Close()
			return nil, fmt.Errorf("open warehouse %s: %w", path, err)
		}
	}
	return w, nil
}

// Checkpoint writes the WAL into the database file, as Close does. DuckDB
// refuses it while another transaction is open. Benchmarks use it to count
// the work a run leaves for later (up to 16 MiB of WAL).
func (w *Warehouse) Checkpoint(ctx context.Context) error {
	if _, err := w.db.ExecContext(ctx, "CHECKPOINT"); err != nil {
		return fmt.Errorf("checkpoint warehouse %s: %w", w.path, err)
	}
	return nil
}

// Close waits for a running write, closes the database (DuckDB checkpoints
// it) and releases the lock. Calling it twice is harmless.
func (w *Warehouse) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed.Load() {
		return nil
	}
	// The dropped versions' rows still there would otherwise be found and
	// deleted at the next Open; a failure here loses nothing.
	if w.sweepAllLocked(context.Background()) == nil {
		_, _ = w.maintainLake(context.Background())
	}
	w.closed.Store(true)
	var errs []error
	if w.writer != nil {
		w.forgetStmts("")
		errs = append(errs, w.writer.Close())
		w.writer = nil
	}
	errs = append(errs, w.db.Close())
	// database/sql closes a connection that is still in use only when its
	// user returns it, and DuckDB keeps the file open until the last one is
	// gone (an Open of the same file in this process would spin inside
	// DuckDB until then). So the lock is released only once every connection
	// is closed: a reopen meanwhile gets a clear LockedError, not a hang.
	if n := waitClosed(w.db, closeDrain); n > 0 {
		errs = append(errs, fmt.Errorf("%d connections still in use after %v; the lock is kept until they are returned", n, closeDrain))
		go func(db *sql.DB, lock *fileLock) {
			// Released once DuckDB has let go of the file, not before.
			for waitClosed(db, time.Minute) > 0 {
			}
			_ = lock.release()
		}(w.db, w.lock)
	} else {
		errs = append(errs, w.lock.release())
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close warehouse %s: %w", w.path, err)
	}
	return nil
}

// closeDrain is how long Close waits for connections still in use.
var closeDrain = 5 * time.Second

// waitClosed waits up to d for every connection of a closed db to be closed
// and returns how many are still open.
func waitClosed(db *sql.DB, d time.Duration) int {
	deadline := time.Now().Add(d)
	for {
		n := db.Stats().OpenConnections
		if n == 0 || time.Now().After(deadline) {
			return n
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Path is the DuckDB file.
func (w *Warehouse) Path() string { return w.path }

// Retention is the number of versions kept per partition besides the current one.
func (w *Warehouse) Retention() int { return w.retention }

// DB is the database for packages that keep their own tables in the same
// file (run state). They must keep out of the _strata schema and the product
// view names, and serialize their own writes (group commit): this
// Warehouse's write lock does not cover them.
func (w *Warehouse) DB() *sql.DB { return w.db }

func (w *Warehouse) checkOpen() error {
	if w.closed.Load() {
		return ErrClosed
	}
	return nil
}
