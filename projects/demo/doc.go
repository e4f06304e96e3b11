// Package demo holds the demo project that `strata init --demo` writes: the
// customer-lifetime-value pipeline of a subscription shop. Its Go blocks are
// ordinary packages of this module, so `go vet ./...` and the compiler check
// them on every build, and they double as the golden end-to-end test of the
// project, warehouse and engine packages.
package demo

import "embed"

// Files is the project template, rooted at "template".
//
//go:embed all:template
var Files embed.FS
