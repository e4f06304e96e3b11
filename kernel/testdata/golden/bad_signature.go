package badsig

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) *sdk.Table { return nil }
