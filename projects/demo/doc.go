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

// Shop is the second demo, `strata init DIR --demo shop`, rooted at "shop":
// orders in a real Postgres loaded incrementally with pgx, landed as
// Parquet and in a Postgres table. Its Go files and go.mod end in .tmpl
// (they need pgx, which strata's go.mod does not require); init drops it.
//
//go:embed all:shop
var Shop embed.FS
