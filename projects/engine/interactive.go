package engine

import (
	"context"
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/projects/project"
)

// Interactive runs serve the editor: a block's current editor text, unsaved,
// against one partition, with its upstreams read from the warehouse's current
// data. Nothing is published.

// PrepareExec builds the kernel request for a Go block's editor text. The
// caller runs it on the session's own kernel. Under a dynamic parent, the
// block runs as the child of the parent's first current row.
func (e *Engine) PrepareExec(ctx context.Context, pipelineID, blockID, source, key string) (*protocol.ExecRequest, []*sdk.Table, error) {
	r, g, b, err := e.interactive(pipelineID, blockID, key)
	if err != nil {
		return nil, nil, err
	}
	if b.Kind != project.KindGo {
		return nil, nil, fmt.Errorf("block %s is %s, not Go", b.ID, b.Kind)
	}
	inputs, item, err := r.interactiveInputs(ctx, g, b)
	if err != nil {
		return nil, nil, err
	}
	return &protocol.ExecRequest{
		Filename:  b.File,
		Source:    source,
		Entry:     "",
		Partition: protocol.PartitionWire{Key: g.part.Key, Start: g.part.Start, End: g.part.End, Interval: string(g.spec.Interval), Zone: g.spec.Zone.String()},
		Item:      item,
		Vars:      r.pl.Variables,
		Inputs:    b.Upstream,
		Timeout:   b.Timeout,
		Allow:     e.project().Kernel.Allow,
	}, inputs, nil
}

// ExecSQL runs a SQL block's editor text against one partition.
func (e *Engine) ExecSQL(ctx context.Context, pipelineID, blockID, source, key string) (*sdk.Table, error) {
	r, g, b, err := e.interactive(pipelineID, blockID, key)
	if err != nil {
		return nil, err
	}
	inputs, _, err := r.interactiveInputs(ctx, g, b)
	if err != nil {
		return nil, err
	}
	rels := map[string]*sdk.Table{}
	for i, u := range b.Upstream {
		rels[u] = inputs[i]
	}
	return e.wh.RunSQL(ctx, source, rels, sqlParams(g.part))
}

func (e *Engine) interactive(pipelineID, blockID, key string) (*runner, *group, *project.Block, error) {
	pl, err := e.Pipeline(pipelineID)
	if err != nil {
		return nil, nil, nil, err
	}
	b := pl.Block(blockID)
	if b == nil {
		return nil, nil, nil, fmt.Errorf("pipeline %s has no block %q", pl.ID, blockID)
	}
	spec, err := SpecOf(b.Partitions)
	if err != nil {
		return nil, nil, nil, err
	}
	p, err := spec.Parse(key)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("block %s: %w", b.ID, err)
	}
	r := &runner{e: e, pl: pl, spec: spec, part: p, readVersions: map[string]map[string]int{}}
	return r, &group{part: p, spec: spec, blocks: []*project.Block{b}}, b, nil
}

// interactiveInputs reads every upstream from the warehouse; a dynamic
// parent contributes its first row, which also becomes ctx.Item.
func (r *runner) interactiveInputs(ctx context.Context, g *group, b *project.Block) ([]*sdk.Table, *sdk.Item, error) {
	var item *sdk.Item
	tables := make([]*sdk.Table, 0, len(b.Upstream))
	for _, u := range b.Upstream {
		t, err := r.readUpstream(ctx, g, r.pl.Block(u))
		if err != nil {
			return nil, nil, fmt.Errorf("%w: run the pipeline for this partition first", err)
		}
		if u == b.FanOut {
			if t.Len() == 0 {
				return nil, nil, fmt.Errorf("dynamic parent %s has no rows for %s", u, g.part.Key)
			}
			item = itemOf(t, 0)
			t = rowTable(t, 0)
		}
		tables = append(tables, t)
	}
	return tables, item, nil
}
