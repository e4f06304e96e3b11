package engine

import (
	"context"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

// Executor runs a Go block somewhere and returns its result: on this
// machine's kernel pool (supervisor.Pool), or on worker machines
// (kernel/remote.Pool). The engine does not know which: pacing, caps,
// retries, cancel and publishing are the engine's and behave the same. A
// failed run is a Result with Error set; a Go error means no kernel could
// take the run at all. Cancelling ctx interrupts the run wherever it is.
type Executor interface {
	Exec(ctx context.Context, req *protocol.ExecRequest, inputs []*sdk.Table, h supervisor.Handler) (*protocol.Result, *sdk.Table, error)
	// Size is the number of block runs the executor takes at once.
	Size() int
}

var _ Executor = (*supervisor.Pool)(nil)
