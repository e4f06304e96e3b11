package project

import (
	"gopkg.in/yaml.v3"

	"github.com/stratahq/strata/projects/partitions"
)

// DimConfig is one value dimension of a pipeline's partitions, as written:
//
//	partitions:
//	  dimensions:
//	    - name: day
//	      interval: day            # the time dimension (at most one)
//	      timezone: UTC
//	    - name: region
//	      values: [us, eu, apac]   # static
//	    - name: customer
//	      from: {product: dim_customers, column: customer_id}   # dynamic
//
// Keys join the dimensions' parts in this order: 2024-03-10|eu|c42. Today's
// form (interval, timezone, start and week_start beside no dimensions) is
// the time dimension alone, and its keys are unchanged. The time fields may
// also stay at the top with a list of value dimensions only; the time part
// then comes first.
type DimConfig struct {
	Name   string
	Values []string // a static dimension's values
	// Product and Column are a dynamic dimension's key set.
	Product, Column string
	Line            int
}

// Dynamic reports whether the dimension's values come from a product.
func (c DimConfig) Dynamic() bool { return c.Product != "" }

var (
	dimFields     = []string{"name", "values", "from", "interval", "timezone", "start", "week_start"}
	dimFromFields = []string{"product", "column"}
	timeFields    = []string{"interval", "timezone", "start", "week_start"}
)

// decodeDimensions reads partitions.dimensions into out. top holds the
// partitions mapping's other fields: its time fields are refused beside a
// time dimension in the list (and removed, so that they are reported once).
// It returns false when the list is unusable.
func (d *decoder) decodeDimensions(e entry, parent string, top map[string]entry, out *PartitionConfig) bool {
	path := join(parent, "dimensions")
	if e.val.Kind != yaml.SequenceNode || len(e.val.Content) == 0 {
		d.addf(e.val, path, "want a list of dimensions (each with a name and one of interval, values or from), got %s", describe(e.val))
		return false
	}
	names := map[string]int{}
	timeAt := -1
	var dims []DimConfig
	for i, n := range e.val.Content {
		n = resolve(n)
		ipath := index(path, i)
		f, ok := d.fields(n, ipath, "a dimension", dimFields)
		if !ok {
			continue
		}
		var name string
		if v, ok := f["name"]; !ok {
			d.addf(n, join(ipath, "name"), "missing name: want an identifier such as region")
		} else if name, ok = d.str(v, join(ipath, "name")); ok {
			if err := partitions.CheckDimName(name); err != nil {
				d.addf(v.val, join(ipath, "name"), "%s", err)
			} else if line, dup := names[name]; dup {
				d.addf(v.val, join(ipath, "name"), "dimension %q is declared twice (first at line %d): want distinct names", name, line)
			}
			names[name] = n.Line
		}
		kinds := 0
		for _, k := range []string{"interval", "values", "from"} {
			if _, ok := f[k]; ok {
				kinds++
			}
		}
		if kinds != 1 {
			d.addf(n, ipath, "dimension %q: want exactly one of interval (time), values (static) or from (dynamic), got %d", name, kinds)
			continue
		}
		if _, ok := f["interval"]; ok {
			if timeAt >= 0 {
				d.addf(n, ipath, "dimension %q is a second time dimension (the first is %q): a pipeline has at most one", name, out.TimeName)
				continue
			}
			for _, k := range timeFields {
				if v, ok := top[k]; ok {
					d.addf(v.key, join(parent, k), "%s is written both here and in time dimension %q: write it once, in the dimension", k, name)
					delete(top, k)
				}
			}
			if _, ok := f["interval"]; ok {
				d.decodeTimeFields(f, ipath, out)
			}
			timeAt, out.TimeName, out.TimePos = len(dims), name, len(dims)
			continue
		}
		for _, k := range timeFields[1:] {
			if v, ok := f[k]; ok {
				d.addf(v.key, join(ipath, k), "%s belongs to a time dimension (one with an interval); dimension %q has none", k, name)
			}
		}
		dc := DimConfig{Name: name, Line: n.Line}
		if v, ok := f["values"]; ok {
			vals, nodes, ok := d.strList(v, join(ipath, "values"))
			if ok && len(vals) == 0 {
				d.addf(v.val, join(ipath, "values"), "dimension %q has no values: want a list such as [us, eu, apac]", name)
			}
			seen := map[string]int{}
			for j, s := range vals {
				if err := partitions.CheckValue(s); err != nil {
					d.addf(nodes[j], index(join(ipath, "values"), j), "dimension %q: %s", name, err)
				} else if line, dup := seen[s]; dup {
					d.addf(nodes[j], index(join(ipath, "values"), j), "dimension %q lists %q twice (first at line %d)", name, s, line)
				}
				seen[s] = nodes[j].Line
			}
			dc.Values = vals
		}
		if v, ok := f["from"]; ok {
			ff, ok := d.fields(v.val, join(ipath, "from"), "a key set source", dimFromFields)
			if ok {
				for _, k := range dimFromFields {
					fv, ok := ff[k]
					if !ok {
						d.addf(v.val, join(join(ipath, "from"), k), "missing %s: a dynamic dimension reads its values from a product's column (from: {product: P, column: C})", k)
						continue
					}
					if s, ok := d.str(fv, join(join(ipath, "from"), k)); ok {
						if k == "product" {
							dc.Product = s
						} else {
							dc.Column = s
						}
					}
				}
			}
		}
		dims = append(dims, dc)
	}
	if timeAt < 0 {
		out.TimePos = 0
		if _, ok := top["interval"]; !ok {
			out.Interval = "none" // dimensions without time: keys are the values alone
		}
	}
	out.Dims = dims
	return true
}
