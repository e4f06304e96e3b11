//go:build !unix

package build

import (
	"context"
	"sync"
)

var buildMu sync.Mutex

// lockDir serializes builds within this process where flock is unavailable.
func lockDir(ctx context.Context, dir string) (func(), error) {
	buildMu.Lock()
	return buildMu.Unlock, nil
}
