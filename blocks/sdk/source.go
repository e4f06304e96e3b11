package sdk

import "embed"

// Source is this package's own source. `strata init` writes it under a
// project's .strata/sdk so the project's go.mod resolves the SDK offline,
// and `go vet` and gopls understand blocks without the network.
//
//go:embed *.go
var Source embed.FS
