//go:build unix

package audit

import (
	"errors"
	"os"
	"syscall"
)

// lock takes an exclusive flock on f, so that a server and a CLI appending
// at once write whole lines one after the other.
func lock(f *os.File) (func(), error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err == nil {
			return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }, nil
		}
		if !errors.Is(err, syscall.EINTR) {
			return nil, err
		}
	}
}
