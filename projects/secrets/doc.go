// Package secrets resolves the credentials a project names in strata.yaml
// and masks them wherever text leaves a run.
//
//	secrets:
//	  pg:  {env: PG_URL}                       # an environment variable of the server
//	  api: {file: ~/.config/strata/api-token}  # a file only its owner can read
//
// strata.yaml holds names and where the values are, never values, so a
// snapshot, fingerprint or diff of the project holds none. A value is read
// when a block asks for it (ctx.Secret in Go, {{secret "pg"}} in a SQL
// block's ATTACH), every time, so a rotated credential is used at once and
// makes nothing stale. A file must be private (no group or world bits) and
// outside the project folder, whose files are versioned.
//
// A Store remembers every value it handed out, and Mask replaces each (and
// the password inside a connection string or URL) by *** in the text and
// tables a run produces: logs, printed output, errors, output tables.
//
// Printed output arrives in pieces: Stream masks a value split across them
// (kernel/redact, which workers share). Beside that leaf package this is
// the standard library only; it knows nothing of blocks, the warehouse or
// HTTP.
package secrets
