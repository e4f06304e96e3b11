// Package sdk is what a Strata block imports: the run Context (partition,
// dynamic item, variables, logger, cancellation, warehouse queries) and Table,
// the typed columnar value that blocks take and return.
//
// The package imports only the standard library. It is loaded into the yaegi
// kernel through extracted symbols and compiled as ordinary Go by `go vet`,
// gopls and the native worker, so everything here must behave the same in
// both worlds: no reflection tricks, no globals that carry state between runs.
package sdk
