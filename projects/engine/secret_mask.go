package engine

import (
	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/projects/secrets"
)

// Secrets is the project's secrets: resolved for blocks at run time, and
// masked in what runs produce. The notebook masks its cells' output with it.
func (e *Engine) Secrets() *secrets.Store { return e.secrets }

// maskAttempt hides every secret value a run resolved in what one block
// attempt produced: its log, its error, its output table's text.
func maskAttempt(s *secrets.Store, out *sdk.Table, rerr *protocol.RunError, log string) (*sdk.Table, *protocol.RunError, string) {
	if !s.Active() {
		return out, rerr, log
	}
	if rerr != nil {
		masked := *rerr
		masked.Message = s.Mask(rerr.Message)
		rerr = &masked
	}
	return MaskTable(s, out), rerr, s.Mask(log)
}

// MaskTable is t with every secret value in its text columns masked; t
// itself when there is none (a column that changes is copied, never
// written in place: it may be an input's, passed through).
func MaskTable(s *secrets.Store, t *sdk.Table) *sdk.Table {
	if t == nil || !s.Active() {
		return t
	}
	masked := map[int]*sdk.Column{}
	for j, c := range t.Columns() {
		if c.Type != sdk.TypeString {
			continue
		}
		var vals []string
		for i, v := range c.Strings() {
			if m := s.Mask(v); m != v {
				if vals == nil {
					vals = append([]string(nil), c.Strings()...)
				}
				vals[i] = m
			}
		}
		if vals != nil {
			masked[j] = sdk.StringsFrom(c.Name, vals, c.Nulls())
		}
	}
	if len(masked) == 0 {
		return t
	}
	out := sdk.NewTable()
	for j, c := range t.Columns() {
		if m, ok := masked[j]; ok {
			c = m
		}
		out.AddColumn(c)
	}
	return out
}
