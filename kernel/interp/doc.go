// Package interp runs Go block source in the yaegi interpreter, inside a
// kernel process. It owns what happens between receiving source and
// returning a table: parsing and type-checking against the exact symbols the
// interpreter has, rejecting what yaegi would mishandle, rewriting what it can
// support (the Go 1.22 loop variable, panics in goroutines), evaluating, and
// mapping every error back to the block file's own line and column.
//
// It knows nothing of pipelines, projects or warehouses: a block is a file,
// an entry function, some input tables and a partition.
package interp
