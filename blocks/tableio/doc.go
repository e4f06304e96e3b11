// Package tableio moves sdk.Tables in and out of the formats people read
// and hand over: CSV (for `strata exec --input`), JSON (the CLI's --format
// json and the API's previews) and aligned text for terminals.
package tableio
