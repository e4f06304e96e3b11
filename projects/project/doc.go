// Package project loads and validates a Strata project folder: strata.yaml,
// the pipeline files under pipelines/, and the block files they name. It owns
// the shape of those files, every check a data engineer should see before a
// run starts, and the DAG of a pipeline (order, roots, downstream blocks,
// which dynamic block each block fans out under).
//
//	myproject/
//	  strata.yaml                    name, timezone, retention, kernel limits, variables
//	  pipelines/<id>.yaml            one pipeline per file; the id is the file name
//	  blocks/<id>/<id>.go            a Go block: a package, one folder each
//	  blocks/<id>.sql                a SQL block: one file
//
// Files are decoded through yaml.v3 nodes so that each problem carries its
// file, line, column and field path, and loading collects every problem
// (Problems) instead of stopping at the first. Go blocks are parsed with
// go/parser to find their entry function (Load, Transform or Export) and
// Check, and to match the entry's table parameters with the upstream list;
// they are never compiled or run here.
//
// The package must not know the warehouse, HTTP or the kernel: it describes
// what a project says, not how it runs. Partition arithmetic belongs to
// projects/partitions; this package only checks that intervals, weekdays,
// zones and start dates name things that exist. SafeJoin and ValidateBlockID
// are exported for the server, which must apply the same rules to paths and
// ids that arrive over HTTP.
package project

// The zone database is embedded so that validating "timezone:" gives the same
// answer on a laptop, in a slim container and in CI, whatever zoneinfo the
// host has.
import _ "time/tzdata"
