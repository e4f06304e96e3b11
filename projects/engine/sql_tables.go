package engine

import (
	"context"
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/project"
)

// TableColumn is one column a SQL block can name.
type TableColumn struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// SQLTable is a relation a SQL block reads: an upstream by its block id,
// with the columns of its product's newest current version (Published) or
// of the session's draft.
type SQLTable struct {
	Name      string        `json:"name"`
	Columns   []TableColumn `json:"columns"`
	Published bool          `json:"published"` // from the warehouse catalog
	Draft     bool          `json:"draft"`     // from the session's draft
}

// SQLTables lists the relations SQL block blockID can query, with their
// columns: its upstreams, each from the session's newest draft of it when
// draftSchema has one, else from the warehouse catalog; an upstream with
// neither is listed without columns.
func (e *Engine) SQLTables(ctx context.Context, pipelineID, blockID string, draftSchema func(block string) ([]sdk.Field, bool)) ([]SQLTable, error) {
	pl, err := e.Pipeline(pipelineID)
	if err != nil {
		return nil, err
	}
	b := pl.Block(blockID)
	if b == nil {
		return nil, errNotFoundf("pipeline %s has no block %q", pl.ID, blockID)
	}
	if b.Kind != project.KindSQL {
		return nil, fmt.Errorf("block %s is %s, not SQL", b.ID, b.Kind)
	}
	var products []string
	for _, u := range b.Upstream {
		if ub := pl.Block(u); ub != nil {
			products = append(products, ProductName(pl, ub))
		}
	}
	schemas, err := e.wh.Schemas(ctx, products)
	if err != nil {
		return nil, err
	}
	out := make([]SQLTable, 0, len(b.Upstream))
	for _, u := range b.Upstream {
		t := SQLTable{Name: u, Columns: []TableColumn{}}
		var fields []sdk.Field
		if f, ok := draftSchemaOf(draftSchema, u); ok {
			fields, t.Draft = f, true
		} else if ub := pl.Block(u); ub != nil {
			fields, t.Published = schemas[ProductName(pl, ub)]
		}
		for _, f := range fields {
			t.Columns = append(t.Columns, TableColumn{Name: f.Name, Type: f.Type.String()})
		}
		out = append(out, t)
	}
	return out, nil
}

func draftSchemaOf(fn func(string) ([]sdk.Field, bool), block string) ([]sdk.Field, bool) {
	if fn == nil {
		return nil, false
	}
	return fn(block)
}
