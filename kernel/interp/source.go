package interp

import "embed"

// Source is this package's own source: a project kernel (kernel/projectkernel),
// the kernel program with a project's modules linked in, is built from it
// with the Go toolchain and the module cache.
//
//go:embed *.go overlay
var Source embed.FS
