//go:build unix

package warehouse

import (
	"path/filepath"
	"syscall"
	"testing"
)

// A process forked while the warehouse was open holds a copy of the lock's
// descriptor until it execs (the dup below stands for it): Close must
// release the lock all the same, so that a reopen meanwhile succeeds. It
// was refused "in use by another process", with no pid, while a kernel
// started beside it was between fork and exec.
func TestCloseReleasesTheLockAForkedCopyStillHolds(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "warehouse.duckdb")
	wh := openAt(t, path, Options{})
	copyFd, err := syscall.Dup(int(wh.lock.f.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(copyFd)
	if err := wh.Close(); err != nil {
		t.Fatal(err)
	}
	again := openAt(t, path, Options{})
	again.Close()
}
