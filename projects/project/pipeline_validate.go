package project

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// validate runs the checks that need the whole pipeline once its file is
// decoded: block sources, edges, cycles, fan-out and entry signatures. Each
// check reports everything it finds, but fan-out is only analysed on an
// acyclic graph, where "upstream" has a meaning.
func (l *loader) validate(d *decoder, pl *Pipeline) {
	for _, b := range pl.Blocks {
		l.checkSource(d, b)
	}
	d.checkUpstreams(pl)
	if !d.checkCycles(pl) {
		d.checkFanOut(pl)
	}
	d.checkTables(pl)
	d.checkReviewProducts(pl)
	d.checkBatches(pl)
}

// checkSource finds the block's file and reads what loading needs from it:
// the entry function, its table count and Check for Go, emptiness for SQL.
func (l *loader) checkSource(d *decoder, b *Block) {
	if !l.resolveSource(d, b) {
		return
	}
	if b.Kind == KindSQL {
		d.probs = append(d.probs, l.inspectSQL(b)...)
		return
	}
	pkg := l.inspectGo(b)
	d.probs = append(d.probs, pkg.probs...)
	b.HasCheck = pkg.check != nil
	if len(pkg.entries) == 1 {
		e := pkg.entries[0]
		b.Entry, b.tables, b.entryAt = e.name, e.tables, e.at
		if pkg.broken {
			b.tables = -1
		}
	}
	if b.Entry != EntryExport {
		return
	}
	at := index("blocks", b.index)
	if e, ok := b.fields["dynamic"]; ok && b.Dynamic {
		d.addf(e.val, at+".dynamic", "an Export block outputs no rows to fan out over (Export is at %s)", b.entryAt)
	}
	if e, ok := b.fields["product"]; ok && b.Product != "" {
		d.addf(e.val, at+".product", "an Export block outputs no table to expose as a product (Export is at %s)", b.entryAt)
	}
}

// checkUpstreams checks each upstream entry names another block of the
// pipeline, once, and one that outputs a table.
func (d *decoder) checkUpstreams(pl *Pipeline) {
	for _, b := range pl.Blocks {
		at := index("blocks", b.index) + ".upstream"
		for j, u := range b.Upstream {
			n, field := b.upNodes[j], index(at, j)
			ub := pl.Block(u)
			switch {
			case u == b.ID:
				d.addf(n, field, "block %q lists itself as upstream: a block cannot read its own output", u)
			case slices.Contains(b.Upstream[:j], u):
				d.addf(n, field, "upstream %q is listed twice: each upstream is one parameter of the entry function", u)
			case ub == nil:
				d.addf(n, field, "unknown upstream %q (%s)", u, knownBlocks(pl, b, u))
			case ub.Entry == EntryExport:
				d.addf(n, field, "upstream %q is an Export block and outputs no table (Export is at %s)", u, ub.entryAt)
			}
		}
	}
}

// knownBlocks lists the other blocks of the pipeline for an unknown-upstream
// message, with the likely intended one.
func knownBlocks(pl *Pipeline, self *Block, unknown string) string {
	var ids []string
	for _, b := range pl.Blocks {
		if b != self {
			ids = append(ids, b.ID)
		}
	}
	if len(ids) == 0 {
		return "the pipeline has no other block"
	}
	shown := ids
	if len(shown) > 12 {
		shown = append(shown[:12:12], "...")
	}
	msg := "blocks in this pipeline: " + strings.Join(shown, ", ")
	if c := closest(unknown, ids); c != "" {
		msg += fmt.Sprintf("; did you mean %q?", c)
	}
	return msg
}

// checkCycles reports each dependency loop at the upstream entry that closes
// it, and whether there was any.
func (d *decoder) checkCycles(pl *Pipeline) bool {
	cycles := pl.cycles()
	for _, c := range cycles {
		field := fmt.Sprintf("%s.upstream[%d]", index("blocks", c.first.index), c.up)
		d.addf(c.first.upNodes[c.up], field, "cycle: %s -> %s (a block cannot depend on its own output, even through others)",
			strings.Join(c.path, " -> "), c.path[0])
	}
	return len(cycles) > 0
}

// checkFanOut works out which dynamic block each block runs under (FanOut)
// and reports the shapes the engine refuses: a block fed by two different
// fan-outs (that would be a cartesian product), a fan-out nested inside
// another, and a reduce with nothing to collect.
func (d *decoder) checkFanOut(pl *Pipeline) {
	// emits[id] is the fan-out a block's output belongs to, as seen by the
	// blocks that read it: its own id when dynamic, none after a reduce.
	emits := map[string]string{}
	for _, b := range pl.Order() {
		at := index("blocks", b.index)
		type parent struct {
			dynamic, via string
			node         *yaml.Node
		}
		var parents []parent
		for j, u := range b.Upstream {
			e := emits[u]
			if u == b.ID || e == "" {
				continue
			}
			dup := false
			for _, p := range parents {
				dup = dup || p.dynamic == e
			}
			if !dup {
				parents = append(parents, parent{e, u, b.upNodes[j]})
			}
		}
		b.FanOut = ""
		switch {
		case b.Reduce:
			if len(parents) == 0 {
				d.addf(b.fields["reduce"].val, at+".reduce",
					"reduce: true, but no upstream block runs under a dynamic block: reduce collects the children of a dynamic block (mark an upstream block dynamic: true, or remove reduce)")
			}
		case len(parents) > 1:
			name := func(p parent) string {
				if p.via == p.dynamic {
					return fmt.Sprintf("%q", p.dynamic)
				}
				return fmt.Sprintf("%q (through upstream %q)", p.dynamic, p.via)
			}
			d.addf(parents[1].node, at+".upstream",
				"two dynamic parents: %s and %s; a block runs under one fan-out only, not their cartesian product: collect one branch first with a reduce: true block",
				name(parents[0]), name(parents[1]))
			b.FanOut = parents[0].dynamic
		case len(parents) == 1:
			b.FanOut = parents[0].dynamic
		}
		if b.Dynamic && b.FanOut != "" {
			d.addf(b.fields["dynamic"].val, at+".dynamic",
				"nested fan-out: %q already runs once per row of dynamic block %q; put a reduce: true block between them",
				b.ID, b.FanOut)
		}
		switch {
		case b.Dynamic:
			emits[b.ID] = b.ID
		default:
			emits[b.ID] = b.FanOut
		}
	}
}

// checkTables compares a Go entry's table parameters with the block's
// upstream list: upstream outputs arrive as parameters in that order, so a
// mismatch would fail on the first run.
func (d *decoder) checkTables(pl *Pipeline) {
	for _, b := range pl.Blocks {
		if b.Kind != KindGo || b.tables < 0 {
			continue
		}
		at := index("blocks", b.index) + ".upstream"
		var n *yaml.Node = b.node
		if e, ok := b.fields["upstream"]; ok {
			n = e.val
		}
		ups := len(b.Upstream)
		switch {
		case b.Entry == EntryLoad && ups > 0:
			d.addf(n, at, "Load takes no tables but the block has %s: rename it Transform and take one *sdk.Table per upstream (Load is at %s)",
				plural(ups, "upstream"), b.entryAt)
		case b.tables != ups:
			d.addf(n, at, "%s takes %s but the block has %s (%s is at %s)",
				b.Entry, plural(b.tables, "table"), plural(ups, "upstream"), b.Entry, b.entryAt)
		}
	}
}
