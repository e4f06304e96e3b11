//go:build unix

package warehouse

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// fileLock is an exclusive flock on "<path>.lock". flock locks belong to an
// open file description, so a second Open in the same process conflicts just
// like another process does, and the kernel drops the lock when the holder
// dies (even by SIGKILL): a stale lock file never blocks a restart.
type fileLock struct {
	f      *os.File
	shared bool // a reader's lock: it wrote no pid
}

// acquireLock takes the lock for the warehouse at dbPath without waiting. When
// another holder has it, the error is a *LockedError naming its pid.
func acquireLock(dbPath string) (*fileLock, error) {
	lockPath := dbPath + ".lock"
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open warehouse lock %s: %w", lockPath, err)
	}
	if err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &LockedError{Path: dbPath, PID: readHolderPID(lockPath)}
		}
		return nil, fmt.Errorf("lock %s: %w", lockPath, err)
	}
	// The pid is informational (for the error above); the flock is the lock.
	pid := []byte(strconv.Itoa(os.Getpid()) + "\n")
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt(pid, 0)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("write pid to %s: %w", lockPath, err)
	}
	return &fileLock{f: f}, nil
}

// acquireSharedLock takes the lock shared, for a read-only open: readers
// coexist, and a writer (exclusive) is refused while they read, and they
// while it writes. A lock file that does not exist and cannot be created,
// or cannot be opened (a project this user may read, not write), means no
// lock: DuckDB's own read lock on the file still keeps writers out.
func acquireSharedLock(dbPath string) (*fileLock, error) {
	lockPath := dbPath + ".lock"
	f, err := os.OpenFile(lockPath, os.O_RDONLY|os.O_CREATE, 0o644)
	if err != nil {
		if f, err = os.Open(lockPath); err != nil {
			return &fileLock{}, nil
		}
	}
	if err := flock(f, syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &LockedError{Path: dbPath, PID: readHolderPID(lockPath)}
		}
		return nil, fmt.Errorf("lock %s: %w", lockPath, err)
	}
	return &fileLock{f: f, shared: true}, nil
}

// release empties the pid (an exclusive lock wrote it) and drops the lock.
func (l *fileLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	if !l.shared {
		_ = l.f.Truncate(0)
	}
	// Unlocked explicitly, not by the close: a process another goroutine
	// is forking holds a copy of every descriptor until it execs, and the
	// flock stays while any copy is open. A reopen in that window was
	// refused "in use by another process" with no pid (a flaky
	// TestNewerWorkOnAPlannedSkipStaysSkipped, kernels forking beside it).
	err := flock(l.f, syscall.LOCK_UN)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}

// readHolderPID reads the holder's pid. A holder that has just taken the lock
// may not have written it yet, so empty content is retried briefly; 0 means
// unknown.
func readHolderPID(lockPath string) int {
	for range 20 {
		b, err := os.ReadFile(lockPath)
		if err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
				return pid
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	return 0
}

func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
