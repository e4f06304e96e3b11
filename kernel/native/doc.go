// Package native is the runtime of a compiled worker: the generated main of a
// project's worker binary (see kernel/build) registers each block's entry
// function here and calls Main, which serves kernel/protocol exactly as
// `strata kernel` does, through kernel/child. Blocks run as ordinary
// compiled Go, so they run at native speed and any valid Go runs.
//
// It imports only the standard library, the SDK, kernel/protocol and
// kernel/child: its source (Source) is carried by the strata binary and
// written into the build folder, so a build needs nothing but the Go
// toolchain.
package native

import "embed"

// Source is this package's own source, for the worker's build folder.
//
//go:embed *.go
var Source embed.FS
