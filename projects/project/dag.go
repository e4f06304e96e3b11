package project

import (
	"slices"
	"strings"
)

// The DAG is not a separate structure: a block's Upstream list is its set of
// incoming edges, and these methods derive the rest on demand. Pipelines hold
// tens of blocks, so quadratic walks are cheaper than keeping an index in
// sync with Blocks. Upstream ids that name no block in the pipeline (which
// loading reports) are ignored here.

// Block returns the block with that id, or nil.
func (p *Pipeline) Block(id string) *Block {
	for _, b := range p.Blocks {
		if b.ID == id {
			return b
		}
	}
	return nil
}

// Roots returns the blocks without upstream blocks, in file order.
func (p *Pipeline) Roots() []*Block {
	var out []*Block
	for _, b := range p.Blocks {
		if len(p.upstreamBlocks(b)) == 0 {
			out = append(out, b)
		}
	}
	return out
}

// Upstream returns the blocks that id reads, in its upstream (parameter) order.
func (p *Pipeline) Upstream(id string) []*Block {
	if b := p.Block(id); b != nil {
		return p.upstreamBlocks(b)
	}
	return nil
}

func (p *Pipeline) upstreamBlocks(b *Block) []*Block {
	var out []*Block
	for _, id := range b.Upstream {
		if u := p.Block(id); u != nil && u != b && !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out
}

// Downstream returns the blocks that read id directly, in file order.
func (p *Pipeline) Downstream(id string) []*Block {
	var out []*Block
	for _, b := range p.Blocks {
		if b.ID != id && slices.Contains(b.Upstream, id) {
			out = append(out, b)
		}
	}
	return out
}

// Descendants returns every block that depends on id directly or through
// other blocks, in Order: what must be skipped when id fails, or re-run
// when it changes.
func (p *Pipeline) Descendants(id string) []*Block {
	reached := map[string]bool{id: true}
	var out []*Block
	for _, b := range p.Order() {
		if b.ID == id {
			continue
		}
		for _, u := range b.Upstream {
			if reached[u] && u != b.ID {
				reached[b.ID] = true
				out = append(out, b)
				break
			}
		}
	}
	return out
}

// Order returns the blocks so that each comes after its upstream blocks.
// Ties keep file order: of the blocks ready to run, the one written first
// goes first, so the order is stable across loads and matches what a reader
// of the file expects. Blocks caught in a cycle (which loading reports) come
// last, in file order.
func (p *Pipeline) Order() []*Block {
	placed := make(map[*Block]bool, len(p.Blocks))
	out := make([]*Block, 0, len(p.Blocks))
	for len(out) < len(p.Blocks) {
		progressed := false
		for _, b := range p.Blocks {
			if placed[b] || !allPlaced(p.upstreamBlocks(b), placed) {
				continue
			}
			placed[b] = true
			out = append(out, b)
			progressed = true
			break // restart from the top so an earlier block that became ready goes first
		}
		if !progressed {
			for _, b := range p.Blocks {
				if !placed[b] {
					out = append(out, b)
				}
			}
			break
		}
	}
	return out
}

func allPlaced(bs []*Block, placed map[*Block]bool) bool {
	for _, b := range bs {
		if !placed[b] {
			return false
		}
	}
	return true
}

// cycle is one dependency loop, in data-flow order, and the upstream entry
// that closes it (in blocks[first], naming the last block).
type cycle struct {
	path  []string // a, b, c for a -> b -> c -> a
	first *Block
	up    int // index in first.Upstream of path[len(path)-1]
}

// cycles finds dependency loops by depth-first search over upstream edges,
// starting from blocks in file order. Each back edge yields one cycle,
// rotated to start at the block written first. Self-dependencies are left to
// the caller, which reports them on their own.
func (p *Pipeline) cycles() []cycle {
	const (
		unseen = iota
		active
		done
	)
	state := make(map[*Block]int, len(p.Blocks))
	var stack []*Block
	var found []cycle
	seen := map[string]bool{}
	var visit func(b *Block)
	visit = func(b *Block) {
		state[b] = active
		stack = append(stack, b)
		for _, u := range p.upstreamBlocks(b) {
			switch state[u] {
			case unseen:
				visit(u)
			case active:
				// stack holds u, x1, ..., b where each is an upstream of the one
				// before; data flows the other way: b -> ... -> x1 -> u -> b.
				start := slices.Index(stack, u)
				loop := slices.Clone(stack[start:])
				slices.Reverse(loop)
				if c, ok := p.rotate(loop); ok && !seen[key(c.path)] {
					seen[key(c.path)] = true
					found = append(found, c)
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[b] = done
	}
	for _, b := range p.Blocks {
		if state[b] == unseen {
			visit(b)
		}
	}
	return found
}

// rotate turns a loop in data-flow order into a cycle starting at the block
// written first, and finds the upstream entry of that block which closes it.
func (p *Pipeline) rotate(loop []*Block) (cycle, bool) {
	first := 0
	for i, b := range loop {
		if b.index < loop[first].index {
			first = i
		}
	}
	loop = slices.Concat(loop[first:], loop[:first])
	c := cycle{first: loop[0], up: -1}
	for _, b := range loop {
		c.path = append(c.path, b.ID)
	}
	c.up = slices.Index(c.first.Upstream, loop[len(loop)-1].ID)
	return c, c.up >= 0
}

func key(path []string) string { return strings.Join(path, " ") }
