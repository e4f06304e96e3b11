// Package frontend holds Strata's browser app: the TypeScript sources in
// src/ (the pipeline notebook, product previews and the backfill page) and,
// after `npm run build` at the repository root, the built files in dist/.
//
// The Go side is only this file: dist is embedded with go:embed so the
// binary serves the app it was built with. dist is committed (make
// check-dist keeps it equal to a fresh build of src), so `go build` and `go
// install` serve the UI without npm. Should dist hold only .gitkeep, FS
// reports nothing to serve and the server shows how to build the UI.
package frontend

import (
	"embed"
	"io/fs"
)

// Dist is the built app, rooted at "dist".
//
//go:embed all:dist
var Dist embed.FS

// FS returns the built app rooted at its index.html, or nil when the app was
// not built into this binary (dist holds only .gitkeep).
func FS() fs.FS {
	sub, err := fs.Sub(Dist, "dist")
	if err != nil {
		return nil
	}
	if _, err := fs.Stat(sub, "index.html"); err != nil {
		return nil
	}
	return sub
}
