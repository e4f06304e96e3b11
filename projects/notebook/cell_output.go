package notebook

import (
	"slices"
	"strings"
	"time"
)

// A page reload (or a reconnect after the server dropped the page's
// connection) must not blank the notebook: each cell shows again the last
// output it had in this session. The session keeps the final event of each
// cell's latest execution (a result, or a run error with its position), small
// by construction: a result carries PreviewRows rows; the whole table is the
// cell's draft, which the result grid pages through.

// CellOutput is a cell's last output in a session.
type CellOutput struct {
	Pipeline  string
	Block     string
	Partition string
	At        time.Time // when the execution ended
	Final     Event     // EventResult, or EventError with Run set
}

// keepOutput records the final event of an execution as its cell's last
// output. Refusals (busy, invalid, no kernel) are not outputs: the cell
// keeps showing what it showed before.
func (s *Session) keepOutput(e *execution, final Event, at time.Time) {
	if final.Kind != EventResult && (final.Kind != EventError || final.Error == nil || final.Error.Run == nil) {
		return
	}
	part := e.partition
	if final.Result != nil && final.Result.Partition != "" {
		part = final.Result.Partition
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.outputs == nil {
		s.outputs = map[[2]string]CellOutput{}
	}
	s.outputs[[2]string{e.pipeline, e.block}] = CellOutput{Pipeline: e.pipeline, Block: e.block, Partition: part, At: at, Final: final}
}

// Outputs lists the last output of each cell of pipeline this session ran,
// by block id.
func (s *Session) Outputs(pipeline string) []CellOutput {
	s.mu.Lock()
	out := make([]CellOutput, 0, len(s.outputs))
	for k, o := range s.outputs {
		if k[0] == pipeline {
			out = append(out, o)
		}
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b CellOutput) int { return strings.Compare(a.Block, b.Block) })
	return out
}
