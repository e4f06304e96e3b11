package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
)

// ErrFileChanged is wrapped by the error Healthy returns once the DuckDB
// file (or its lock) at the warehouse's path is no longer the one this
// process opened.
//
// Why it matters: DuckDB keeps writing to the file it opened. When .strata/
// is removed, or the file replaced (a restore, a `git clean -fdx`, a copy
// over it), every write still "succeeds" into a file nobody can open again,
// and a restart finds all of it gone. So before each write the warehouse
// compares the path's file and lock with the ones it holds (two stats, a
// few microseconds) and, once they differ, refuses every write from then
// on: a process that cannot keep its work must not report success.
var ErrFileChanged = errors.New("warehouse file changed under the running process")

// identity is what the warehouse opened: its file and its lock file.
type identity struct {
	db, lock os.FileInfo
}

func openedIdentity(path string, lock *fileLock) (identity, error) {
	db, err := os.Stat(path)
	if err != nil {
		return identity{}, fmt.Errorf("stat %s after opening it: %w", path, err)
	}
	id := identity{db: db}
	if lock != nil && lock.f != nil {
		if id.lock, err = lock.f.Stat(); err != nil {
			return identity{}, fmt.Errorf("stat the lock of %s: %w", path, err)
		}
	}
	return id, nil
}

// Healthy reports whether the warehouse can still keep what is written to
// it: nil, ErrClosed, or an error wrapping ErrFileChanged that says what
// changed and what to do. Once the file has changed the answer stays so
// until the process restarts, even if a file reappears at the path.
func (w *Warehouse) Healthy() error {
	if err := w.checkOpen(); err != nil {
		return err
	}
	if err := w.broken.Load(); err != nil {
		return *err
	}
	if err := w.compareIdentity(); err != nil {
		err = fmt.Errorf("%w: %s; writes are refused so that nothing is reported done that a restart would lose. Stop strata, put the warehouse file back (or accept that its recent work is gone) and start it again", ErrFileChanged, err.Error())
		w.broken.CompareAndSwap(nil, &err)
		return *w.broken.Load()
	}
	return nil
}

func (w *Warehouse) compareIdentity() error {
	now, err := os.Stat(w.path)
	switch {
	case err != nil && errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("warehouse %s is no longer there (it was removed while this process had it open)", w.path)
	case err != nil:
		return fmt.Errorf("warehouse %s can no longer be checked: %v", w.path, err)
	case !os.SameFile(now, w.opened.db):
		return fmt.Errorf("warehouse %s is no longer the file this process opened (it was replaced by another file)", w.path)
	}
	if w.opened.lock == nil {
		return nil
	}
	lockPath := w.path + ".lock"
	lock, err := os.Stat(lockPath)
	switch {
	case err != nil:
		return fmt.Errorf("the lock %s of warehouse %s is no longer there, so another process may open it", lockPath, w.path)
	case !os.SameFile(lock, w.opened.lock):
		return fmt.Errorf("the lock %s of warehouse %s was replaced, so another process may hold it", lockPath, w.path)
	}
	return nil
}

// ErrTruncated is wrapped by the error Open returns for a file shorter than
// its own header says it is.
var ErrTruncated = errors.New("warehouse file is truncated")

// duckdbHeaderSize is DuckDB's file header: the main header and two
// database headers of 4 KiB each, before the first block.
const duckdbHeaderSize = 3 * 4096

// checkWhole compares the file's size with the blocks DuckDB's header
// counts. A file cut at the tail opens fine, and its first write then fails
// deep inside DuckDB ("Could not read enough bytes"); this says it at once,
// with what to do.
//
// Only without a WAL (hadWAL: one existed before DuckDB opened the file):
// opening a file with one (left by a kill) replays it,
// and the replayed changes take blocks that exist in memory only until the
// next checkpoint, so the count is then larger than the file, legitimately.
// (A truncated file with a WAL is still caught on its first write, by
// ioHint's message.)
func checkWhole(ctx context.Context, db *sql.DB, path string, hadWAL bool) error {
	if hadWAL {
		return nil
	}
	var blockSize, totalBlocks, usedBlocks int64
	rows, err := db.QueryContext(ctx, `SELECT block_size, total_blocks, used_blocks FROM pragma_database_size() WHERE database_name = current_database()`)
	if err != nil {
		return nil // not knowable here; DuckDB's own errors remain
	}
	if rows.Next() {
		err = rows.Scan(&blockSize, &totalBlocks, &usedBlocks)
	}
	rows.Close()
	if err != nil || blockSize == 0 {
		return nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil
	}
	want := duckdbHeaderSize + totalBlocks*blockSize
	if cutShort(st.Size(), blockSize, totalBlocks, usedBlocks) {
		return fmt.Errorf("%w: %s is %d bytes but its header counts %d blocks of %d bytes (%d bytes): its tail was cut off (a full disk, an interrupted copy or restore). Nothing was written to it. Restore the file from a backup, or move it aside to start with an empty warehouse (its data products and run history are in it)",
			ErrTruncated, path, st.Size(), totalBlocks, blockSize, want)
	}
	return nil
}

// cutShort says whether a file of size bytes lost its tail. DuckDB itself
// cuts free blocks off the end of the file at a checkpoint while its header
// still counts them in total_blocks (a five-year demo backfill left a whole
// file of 301 blocks whose header counts 306, 240 of them used), so the
// whole file is the header and a whole number of blocks, at least every
// used one. A cut by a full disk or an interrupted copy is caught when it
// lands inside a block or removes used blocks.
func cutShort(size, blockSize, totalBlocks, usedBlocks int64) bool {
	if totalBlocks <= 0 || blockSize <= 0 {
		return false
	}
	if size < duckdbHeaderSize || (size-duckdbHeaderSize)%blockSize != 0 {
		return true
	}
	return size < duckdbHeaderSize+usedBlocks*blockSize
}

// ioHint adds what to do to a DuckDB IO error from a write: the file was
// damaged after it was opened.
func ioHint(path string, err error) error {
	if err == nil || !strings.Contains(err.Error(), "IO Error") {
		return err
	}
	return fmt.Errorf("%w\n(the warehouse file %s could not be read or written: it may have been truncated or damaged while open, or the disk is full; stop strata, check the disk, and restore the file from a backup if it was damaged)", err, path)
}
