package protocol

import "embed"

// Source is this package's own source: compiled workers are built from it
// (see kernel/build), with nothing but the Go toolchain.
//
//go:embed *.go
var Source embed.FS
