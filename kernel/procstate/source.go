package procstate

import "embed"

// Source is this package's own source: a project kernel (kernel/projectkernel)
// is built from it, with nothing but the Go toolchain.
//
//go:embed *.go
var Source embed.FS
