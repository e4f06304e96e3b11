package engine

import (
	"slices"

	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// sinkFor offers the executor to write block b's output itself into the
// warehouse's data folder (a worker on a DuckLake; any other executor
// ignores the offer and returns the table). The engine does not know which
// backend it has: the warehouse says whether it takes files at all.
//
// A block whose output a block of the same group reads here (a SQL block,
// or a Go block handed the table) asks for the table back as well: the
// coordinator still saves writing the rows. A fan-out parent or child, an
// Export block and a replay (which diffs the tables and publishes nothing)
// get no offer.
func (r *runner) sinkFor(g *group, b *project.Block) *protocol.OutputSink {
	if r.replay != nil || b.Dynamic || b.Entry == "Export" || r.e.wh == nil {
		return nil
	}
	ret := false
	for _, o := range g.blocks {
		if o.FanOut == b.ID {
			return nil
		}
		ret = ret || slices.Contains(o.Upstream, b.ID)
	}
	product := ProductName(r.pl, b)
	s, ok := r.e.wh.FileSink(product, g.part.Key, r.opt.BasedOn[product])
	if !ok {
		return nil
	}
	return &protocol.OutputSink{DataPath: s.DataPath, Product: s.Product, Partition: s.Partition, Version: s.Version, Return: ret, MinRows: s.MinRows}
}

// keepWritten records the file a worker wrote for block b, for the publish.
func (r *runner) keepWritten(b string, w *protocol.WrittenOutput) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.written == nil {
		r.written = map[string]*warehouse.WrittenFile{}
	}
	r.written[b] = &warehouse.WrittenFile{Path: w.Path, Rows: w.Rows, Bytes: w.Bytes, Hash: w.Hash, Schema: w.Schema,
		Partition: w.Partition, Version: w.Version}
}

// writtenOf is the file a worker wrote for block b, or nil.
func (r *runner) writtenOf(b string) *warehouse.WrittenFile {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.written[b]
}
