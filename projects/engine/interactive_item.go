package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

// MaxItems bounds the dynamic items DynamicItems lists: a chooser, not an
// export of the parent's rows.
const MaxItems = 500

// Items is the rows of a block's dynamic parent an editor run can take as
// its item.
type Items struct {
	Parent string   `json:"parent"`
	Keys   []string `json:"keys"`  // in row order, at most MaxItems
	Total  int      `json:"total"` // all the parent's rows
	Draft  bool     `json:"draft"` // read from the session's draft of the parent
}

// DynamicItems lists the items a block that runs once per row of a dynamic
// parent can be run as in the editor, for partition key, read as an editor
// run reads them (the session's draft of the parent, else published data).
// A block without a dynamic parent has none: nil, nil.
func (e *Engine) DynamicItems(ctx context.Context, pipelineID, blockID, key string, drafts DraftLookup) (*Items, error) {
	r, g, b, err := e.interactive(pipelineID, blockID, key)
	if err != nil {
		return nil, err
	}
	if b.FanOut == "" {
		return nil, nil
	}
	ub := r.pl.Block(b.FanOut)
	out := &Items{Parent: b.FanOut, Keys: []string{}}
	var t *sdk.Table
	if d, ok := r.draftOf(g, ub, drafts); ok {
		t, out.Draft = d.Table, true
	} else if t, err = r.readUpstream(ctx, g, ub); err != nil {
		return nil, fmt.Errorf("%w: run the pipeline for this partition first, or run the %s cell in this session", err, b.FanOut)
	}
	out.Total = t.Len()
	for i := 0; i < t.Len() && i < MaxItems; i++ {
		out.Keys = append(out.Keys, itemOf(t, i).Key)
	}
	return out, nil
}

// itemIndex finds the row named key (as itemOf names rows); empty is the
// first row.
func itemIndex(t *sdk.Table, key string) (int, error) {
	if key == "" {
		return 0, nil
	}
	var some []string
	for i := 0; i < t.Len(); i++ {
		k := itemOf(t, i).Key
		if k == key {
			return i, nil
		}
		if len(some) < 5 {
			some = append(some, k)
		}
	}
	return 0, fmt.Errorf("no item %q among its %d rows (items: %s…)", key, t.Len(), strings.Join(some, ", "))
}
