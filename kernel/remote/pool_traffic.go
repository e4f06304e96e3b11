package remote

import (
	"fmt"
	"sync/atomic"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
)

// Traffic is what went through the coordinator for the tasks it handed out:
// the rows of the input tables it sent and of the output tables it got
// back, against the inputs workers read from files and the outputs they
// wrote as files. On a DuckLake the files are the point: their rows never
// pass through the coordinator.
type Traffic struct {
	InputRows   int64 `json:"input_rows"`   // rows of input tables sent with tasks
	InputFiles  int64 `json:"input_files"`  // inputs named by an upstream's file, for the worker to read
	OutputRows  int64 `json:"output_rows"`  // rows of output tables received (results used)
	OutputFiles int64 `json:"output_files"` // outputs the workers wrote as files (results used)
	// InputsRefused counts tasks a worker could not read an input file of
	// (ErrNotHere: no data folder there); the engine sent their tables.
	InputsRefused int64 `json:"inputs_refused"`
}

type trafficCounters struct {
	inputRows, inputFiles, outputRows, outputFiles, refused atomic.Int64
}

func (c *trafficCounters) sent(req *protocol.ExecRequest, inputs []*sdk.Table) {
	for _, t := range inputs {
		if t != nil {
			c.inputRows.Add(int64(t.Len()))
		}
	}
	c.inputFiles.Add(int64(len(req.InputFiles)))
}

func (c *trafficCounters) received(res *protocol.Result, out *sdk.Table) {
	if out != nil {
		c.outputRows.Add(int64(out.Len()))
	}
	if res != nil && res.Written != nil {
		c.outputFiles.Add(1)
	}
	if res != nil && res.Error != nil && res.Error.Kind == protocol.ErrNotHere {
		c.refused.Add(1)
	}
}

// Traffic reports the pool's counts since it started.
func (p *Pool) Traffic() Traffic {
	return Traffic{InputRows: p.traffic.inputRows.Load(), InputFiles: p.traffic.inputFiles.Load(),
		OutputRows: p.traffic.outputRows.Load(), OutputFiles: p.traffic.outputFiles.Load(), InputsRefused: p.traffic.refused.Load()}
}

// String is the line the coordinator prints when it stops.
func (t Traffic) String() string {
	return fmt.Sprintf("tables through the coordinator: %d input rows sent, %d output rows received; files on the data folder instead: %d inputs named by file (%d tasks refused theirs), %d outputs written by workers",
		t.InputRows, t.OutputRows, t.InputFiles, t.InputsRefused, t.OutputFiles)
}
