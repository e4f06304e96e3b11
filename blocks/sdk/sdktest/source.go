package sdktest

import "embed"

// Source is this package's own source; `strata init` (and `strata test`)
// write it under .strata/sdk/blocks/sdk/sdktest beside the SDK.
//
//go:embed *.go
var Source embed.FS
