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
	// LakeInputs counts tasks' inputs named by committed versions, for
	// the worker to read from the lake itself; LakeSQL the SQL tasks and
	// LakeGo the Go blocks' tasks over such versions that succeeded on a
	// worker (those rows were never sent from here).
	LakeInputs int64 `json:"lake_inputs"`
	LakeSQL    int64 `json:"lake_sql"`
	LakeGo     int64 `json:"lake_go"`
}

type trafficCounters struct {
	inputRows, inputFiles, outputRows, outputFiles, refused, lakeInputs, lakeSQL, lakeGo atomic.Int64
}

func (c *trafficCounters) sent(req *protocol.ExecRequest, inputs []*sdk.Table) {
	for _, t := range inputs {
		if t != nil {
			c.inputRows.Add(int64(t.Len()))
		}
	}
	c.inputFiles.Add(int64(len(req.InputFiles)))
	c.lakeInputs.Add(int64(len(req.InputVersions)))
}

func (c *trafficCounters) received(task *call, res *protocol.Result, out *sdk.Table) {
	if task.lake && res != nil && res.Error == nil {
		if task.sql {
			c.lakeSQL.Add(1)
		} else {
			c.lakeGo.Add(1)
		}
	}
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
		OutputRows: p.traffic.outputRows.Load(), OutputFiles: p.traffic.outputFiles.Load(), InputsRefused: p.traffic.refused.Load(),
		LakeInputs: p.traffic.lakeInputs.Load(), LakeSQL: p.traffic.lakeSQL.Load(), LakeGo: p.traffic.lakeGo.Load()}
}

// String is the line the coordinator prints when it stops.
func (t Traffic) String() string {
	return fmt.Sprintf("tables through the coordinator: %d input rows sent, %d output rows received; files on the data folder instead: %d inputs named by file (%d tasks refused theirs), %d outputs written by workers; committed lake versions read by workers: %d inputs, %d SQL tasks ran on them, %d Go tasks",
		t.InputRows, t.OutputRows, t.InputFiles, t.InputsRefused, t.OutputFiles, t.LakeInputs, t.LakeSQL, t.LakeGo)
}

// RunsSQL says this executor hands SQL tasks (ExecRequest.SQL) to workers
// with a DuckDB of their own, which read committed lake versions too.
func (p *Pool) RunsSQL() bool { return true }

// ReadsLake says this executor's workers read a Go block's committed
// upstream versions from the lake themselves (AgentConfig.Lake), or answer
// ErrNotHere.
func (p *Pool) ReadsLake() bool { return true }
