package project

import (
	"time"

	"gopkg.in/yaml.v3"
)

// ProductRead is one element of a pipeline's `reads:` list: a global product
// that its blocks read with ctx.Product, and how fresh it must be. A read of
// a partition whose current version is older than MaxAge (or missing) makes
// the engine refresh it first, by running the pipeline that exposes it (as
// Mage's outdated_after does).
type ProductRead struct {
	Product string
	MaxAge  time.Duration // 0: any age will do
	Line    int

	index int
	node  *yaml.Node
}

var readFields = []string{"product", "freshness"}
var freshnessFields = []string{"max_age"}

// Read returns the pipeline's declaration for product, or nil.
func (p *Pipeline) Read(product string) *ProductRead {
	for _, r := range p.Reads {
		if r.Product == product {
			return r
		}
	}
	return nil
}

func (d *decoder) decodeReads(pl *Pipeline, e entry) {
	if e.val.Kind != yaml.SequenceNode {
		d.addf(e.val, "reads", "want a list such as [{product: raw_events, freshness: {max_age: 6h}}], got %s", describe(e.val))
		return
	}
	for i, n := range e.val.Content {
		path := index("reads", i)
		f, ok := d.fields(resolve(n), path, "a product read", readFields)
		if !ok {
			continue
		}
		r := &ProductRead{Line: n.Line, index: i}
		p, ok := f["product"]
		if !ok {
			d.addf(n, path+".product", "missing product: name the global product this pipeline reads with ctx.Product")
			continue
		}
		if r.Product, ok = d.str(p, path+".product"); !ok {
			continue
		}
		r.node = p.val
		if prev := pl.Read(r.Product); prev != nil {
			d.addf(p.val, path+".product", "product %q is listed twice (first at line %d)", r.Product, prev.Line)
			continue
		}
		if fr, ok := f["freshness"]; ok {
			if ff, ok := d.fields(fr.val, path+".freshness", "a freshness mapping", freshnessFields); ok {
				if m, ok := ff["max_age"]; ok {
					if v, ok := d.duration(m, path+".freshness.max_age", false); ok {
						r.MaxAge = v
					}
				}
			}
		}
		pl.Reads = append(pl.Reads, r)
	}
}
