package engine

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// Interactive runs serve the editor: a block's current editor text, unsaved,
// against one partition. Each upstream is read from the caller's drafts (the
// outputs of cells the same notebook session ran) where one exists for that
// partition, and from the warehouse's current data otherwise. Nothing is
// published.

// Draft is an output an editor session kept: what a cell produced for one
// partition, and when.
type Draft struct {
	Table *sdk.Table
	At    time.Time
}

// DraftLookup answers an interactive run's question "does the session hold
// a draft of block for partition key?". Nil means no drafts.
type DraftLookup func(block, key string) (Draft, bool)

// InputOrigin says where one upstream of an interactive run came from: the
// session's draft (DraftAt set) or the published versions of its partitions.
type InputOrigin struct {
	Block    string         `json:"block"`
	Draft    bool           `json:"draft"`
	DraftAt  *time.Time     `json:"draft_at,omitempty"`
	Product  string         `json:"product,omitempty"`
	Versions map[string]int `json:"versions,omitempty"` // partition -> published version read
}

// Interactive is one prepared editor run of a block.
type Interactive struct {
	Block   *project.Block
	Key     string         // the partition it runs for
	Inputs  []*sdk.Table   // one per upstream, in the block's upstream order
	Origins []InputOrigin  // where each input came from, same order
	Item    *sdk.Item      // the dynamic parent's row the block runs as, if any
	Zone    *time.Location // the block's partition zone, for previews
	r       *runner
	g       *group
	// state is the block's ctx.State as a run would start from it; what
	// the cell sets is dropped, as a cell publishes nothing.
	state map[string]string
}

// PrepareInteractive resolves a block's inputs for an editor run of key
// (the latest complete partition when empty).
func (e *Engine) PrepareInteractive(ctx context.Context, pipelineID, blockID, key string, drafts DraftLookup) (*Interactive, error) {
	return e.PrepareInteractiveItem(ctx, pipelineID, blockID, key, "", drafts)
}

// PrepareInteractiveItem is PrepareInteractive for a block under a dynamic
// parent run as the child of the parent's row named item (its "key"
// column, else its index; see DynamicItems). An empty item takes the first
// row.
func (e *Engine) PrepareInteractiveItem(ctx context.Context, pipelineID, blockID, key, item string, drafts DraftLookup) (*Interactive, error) {
	return e.PrepareInteractiveIn(ctx, "", pipelineID, blockID, key, item, drafts)
}

// PrepareInteractiveIn is PrepareInteractiveItem whose warehouse reads
// prefer the versions pinned owns (an environment's, as RunOptions
// PreferPinned); "" reads the current ones.
func (e *Engine) PrepareInteractiveIn(ctx context.Context, pinned, pipelineID, blockID, key, item string, drafts DraftLookup) (*Interactive, error) {
	r, g, b, err := e.interactive(pipelineID, blockID, key)
	if err != nil {
		return nil, err
	}
	r.opt.PreferPinned = pinned
	inputs, origins, it, err := r.interactiveInputs(ctx, g, b, item, drafts)
	if err != nil {
		return nil, err
	}
	var state map[string]string
	if b.Kind == project.KindGo && b.Entry != project.EntryExport {
		// An environment's cell starts from the environment's cursor.
		if state, err = e.wh.StateIn(ctx, pinned, ProductName(r.pl, b)); err != nil {
			return nil, err
		}
	}
	return &Interactive{Block: b, Key: g.part.Key, Inputs: inputs, Origins: origins, Item: it, Zone: g.spec.Zone, r: r, g: g, state: state}, nil
}

// ExecRequest builds the kernel request that runs source as the prepared Go
// block. The caller runs it on the session's own kernel.
func (in *Interactive) ExecRequest(source string) (*protocol.ExecRequest, error) {
	b, g, r := in.Block, in.g, in.r
	if b.Kind != project.KindGo {
		return nil, fmt.Errorf("block %s is %s, not Go", b.ID, b.Kind)
	}
	return &protocol.ExecRequest{
		Filename:  b.File,
		Source:    source,
		Files:     r.srcs[b.ID].others, // the cell is the block's file; its package's other files come along
		Entry:     "",
		Partition: wirePartition(g.spec, g.part),
		Item:      in.Item,
		Vars:      r.pl.Variables,
		Inputs:    b.Upstream,
		Timeout:   b.Timeout,
		Allow:     r.e.project().Kernel.Allow,
		State:     in.state,
	}, nil
}

// ExecSQL runs source as the prepared SQL block, its upstreams bound as
// relations.
func (in *Interactive) ExecSQL(ctx context.Context) func(source string) (*sdk.Table, error) {
	return func(source string) (*sdk.Table, error) {
		rels := map[string]*sdk.Table{}
		for i, u := range in.Block.Upstream {
			rels[u] = in.Inputs[i]
		}
		ins := make([]warehouse.SQLInput, 0, len(rels))
		for n, t := range rels {
			ins = append(ins, warehouse.SQLInput{Name: n, Table: t})
		}
		// A product the cell names (not an upstream) is read as the
		// environment sees it, as a run into it reads it (RunSQLBlockIn),
		// another pipeline's by the cells mapped onto the partition.
		mapped, err := in.r.mappedSQLInputs(ctx, in.g, in.Block, source, []string{in.g.part.Key})
		if err != nil {
			return nil, err
		}
		t, _, _, err := in.r.e.wh.RunSQLBlockIn(ctx, in.r.opt.PreferPinned, source, append(ins, mapped.ins...), sqlParams(in.g.spec, in.g.part))
		return t, err
	}
}

// HostCall answers the cell's ctx.Query, ctx.Product and ctx.Secret. A
// ctx.Product window is read as the environment the cell runs in sees it
// (its pinned versions first, as a run into it reads), never prod's alone;
// the rest is the engine's HostCall. Nothing is recorded: a cell
// publishes nothing.
func (in *Interactive) HostCall(ctx context.Context, c *protocol.HostCall) (*sdk.Table, error) {
	if c.Method == "product" {
		if keys, mapped, err := in.r.e.mappedRead(ctx, in.g.spec, c.Product, c.Window); mapped || err != nil {
			if err != nil {
				return nil, err
			}
			// the cells covering the partition, as a run reads them (cell_read.go)
			t, _, err := in.r.e.wh.ReadSelected(ctx, c.Product, warehouse.Selection{Partitions: keys, PreferPinned: in.r.opt.PreferPinned})
			return t, err
		}
		t, _, err := in.r.e.readProduct(ctx, c, in.r.opt.PreferPinned)
		return t, err
	}
	return in.r.e.HostCall(ctx, c)
}

// PrepareExec builds the kernel request for a Go block's editor text, its
// upstreams read from published data only. Under a dynamic parent, the
// block runs as the child of the parent's first current row.
func (e *Engine) PrepareExec(ctx context.Context, pipelineID, blockID, source, key string) (*protocol.ExecRequest, []*sdk.Table, error) {
	in, err := e.PrepareInteractive(ctx, pipelineID, blockID, key, nil)
	if err != nil {
		return nil, nil, err
	}
	req, err := in.ExecRequest(source)
	if err != nil {
		return nil, nil, err
	}
	return req, in.Inputs, nil
}

// ExecSQL runs a SQL block's editor text against one partition of published data.
func (e *Engine) ExecSQL(ctx context.Context, pipelineID, blockID, source, key string) (*sdk.Table, error) {
	in, err := e.PrepareInteractive(ctx, pipelineID, blockID, key, nil)
	if err != nil {
		return nil, err
	}
	return in.ExecSQL(ctx)(source)
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
	if key == "" {
		key = spec.Latest(e.now()).Key
	}
	p, err := spec.Parse(key)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("block %s: %w", b.ID, err)
	}
	r := &runner{e: e, pl: pl, spec: spec, part: p, readVersions: map[string]map[string]int{}, editor: true}
	return r, &group{part: p, spec: spec, blocks: []*project.Block{b}}, b, nil
}

// interactiveInputs reads every upstream, from a draft of the same
// partition when the session holds one, else from the warehouse; a dynamic
// parent contributes its first row, which also becomes ctx.Item. A draft is
// used only for an upstream of the same interval: a coarser block covering
// finer upstream partitions reads them published, since a session's drafts
// are one partition each.
func (r *runner) interactiveInputs(ctx context.Context, g *group, b *project.Block, itemKey string, drafts DraftLookup) ([]*sdk.Table, []InputOrigin, *sdk.Item, error) {
	var item *sdk.Item
	tables := make([]*sdk.Table, 0, len(b.Upstream))
	origins := make([]InputOrigin, 0, len(b.Upstream))
	for _, u := range b.Upstream {
		ub := r.pl.Block(u)
		var t *sdk.Table
		o := InputOrigin{Block: u, Product: ProductName(r.pl, ub)}
		if d, ok := r.draftOf(g, ub, drafts); ok {
			t = d.Table
			at := d.At
			o.Draft, o.DraftAt = true, &at
		} else {
			var err error
			if t, err = r.readUpstream(ctx, g, ub); err != nil {
				return nil, nil, nil, fmt.Errorf("%w: run the pipeline for this partition first, or run the %s cell in this session", err, u)
			}
			r.mu.Lock()
			o.Versions = r.readVersions[o.Product]
			r.mu.Unlock()
		}
		if u == b.FanOut {
			if t.Len() == 0 {
				return nil, nil, nil, fmt.Errorf("dynamic parent %s has no rows for %s", u, g.part.Key)
			}
			i, err := itemIndex(t, itemKey)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("dynamic parent %s for %s: %w", u, g.part.Key, err)
			}
			item = itemOf(t, i)
			t = rowTable(t, i)
		}
		tables = append(tables, t)
		origins = append(origins, o)
	}
	return tables, origins, item, nil
}

func (r *runner) draftOf(g *group, ub *project.Block, drafts DraftLookup) (Draft, bool) {
	if drafts == nil || ub == nil {
		return Draft{}, false
	}
	us, err := SpecOf(ub.Partitions)
	if err != nil || us.Interval != g.spec.Interval {
		return Draft{}, false
	}
	return drafts(ub.ID, g.part.Key)
}

// VersionList is the distinct versions of an origin, ascending, for a label.
func (o InputOrigin) VersionList() []int {
	seen := map[int]bool{}
	var out []int
	for _, v := range o.Versions {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Ints(out)
	return out
}
