//go:build !unix

package warehouse

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// fileLock on systems without flock is a lock file created exclusively. It is
// weaker than the unix lock: a holder killed without Close leaves the file
// behind, and the error then names a pid that may be gone; delete the file
// after checking. Strata's supported platforms are unix; this keeps the
// package building elsewhere.
type fileLock struct {
	path string
	f    *os.File
}

func acquireLock(dbPath string) (*fileLock, error) {
	lockPath := dbPath + ".lock"
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			pid := 0
			if b, err := os.ReadFile(lockPath); err == nil {
				pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			}
			return nil, &LockedError{Path: dbPath, PID: pid}
		}
		return nil, fmt.Errorf("create warehouse lock %s: %w", lockPath, err)
	}
	if _, err := f.WriteString(strconv.Itoa(os.Getpid()) + "\n"); err != nil {
		f.Close()
		os.Remove(lockPath)
		return nil, fmt.Errorf("write pid to %s: %w", lockPath, err)
	}
	return &fileLock{path: lockPath, f: f}, nil
}

func (l *fileLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	if rmErr := os.Remove(l.path); err == nil {
		err = rmErr
	}
	return err
}

// acquireSharedLock: without flock a reader takes no lock; DuckDB's own
// read lock on the file keeps writers out.
func acquireSharedLock(dbPath string) (*fileLock, error) { return &fileLock{}, nil }
