package child

import (
	"context"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
)

// processState is the process state a run may change and the next run
// must not see: a kernel serves many runs, in both engines, and `go run`
// starts each program with the environment, working folder (the
// project's) and time.Local its process was given. A block that set them
// for itself (time.Local = Tokyo, os.Chdir("/"), os.Setenv) changed them
// for every later run on its kernel, so a backfill's partitions read them
// by which kernel ran them before.
type processState struct {
	env   []string
	dir   string
	local *time.Location
}

func currentState() processState {
	dir, _ := os.Getwd()
	return processState{env: os.Environ(), dir: dir, local: time.Local}
}

// restoring runs each block in the process state the kernel started with.
type restoring struct {
	protocol.Executor
	start processState
}

func (r restoring) Exec(ctx context.Context, req *protocol.ExecRequest, inputs []*sdk.Table, env *protocol.Env) (*sdk.Table, *protocol.Result) {
	r.start.restore()
	return r.Executor.Exec(ctx, req, inputs, env)
}

// restore puts the environment, the working folder and time.Local back
// as they were in s.
func (s processState) restore() {
	if !slices.Equal(os.Environ(), s.env) {
		os.Clearenv()
		for _, kv := range s.env {
			if k, v, ok := strings.Cut(kv, "="); ok {
				os.Setenv(k, v)
			}
		}
	}
	if s.dir != "" {
		if wd, err := os.Getwd(); err != nil || wd != s.dir {
			_ = os.Chdir(s.dir) // gone: the run sees the error Go would give it
		}
	}
	if time.Local != s.local {
		// Only when a run changed it: other goroutines read time.Local,
		// and a write on every run was a data race (the race detector
		// stopped every kernel of the -race suite).
		time.Local = s.local
	}
}
