module cgocorpus

go 1.26.0

require (
	github.com/mattn/go-sqlite3 v1.14.22
	github.com/stratahq/strata v0.0.0
)

// The SDK source ships inside the strata binary; `strata init` writes it here.
replace github.com/stratahq/strata => ./.strata/sdk
