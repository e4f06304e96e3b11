package project

import (
	"regexp"
	"slices"
)

// extensionName is what DuckDB accepts as an extension name; the
// extensions package installs and loads them (this package only reads the
// list).
var extensionName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// decodeExtensions reads `extensions: [ducklake, postgres, httpfs]`: the
// DuckDB extensions the warehouse loads for this project's SQL blocks.
func (d *decoder) decodeExtensions(p *Project, e entry) {
	names, nodes, _ := d.strList(e, "extensions")
	for i, name := range names {
		field := index("extensions", i)
		switch {
		case !extensionName.MatchString(name):
			d.addf(nodes[i], field, "extension %q: want a lower-case DuckDB extension name such as ducklake, postgres or httpfs", name)
		case slices.Contains(p.Extensions, name):
			d.addf(nodes[i], field, "extension %q is listed twice", name)
		default:
			p.Extensions = append(p.Extensions, name)
		}
	}
}
