// Package extensions installs and loads the DuckDB extensions a project
// names in strata.yaml (`extensions: [ducklake, postgres, httpfs]`).
//
// DuckDB's own autoinstall and autoload stay off everywhere Strata opens a
// database: a run never reaches the network, and a query never loads code
// the project did not ask for. Instead, extensions are installed once into
// the user's extension folder (DuckDB's own, ~/.duckdb/extensions/<version>/
// <platform>, or STRATA_EXTENSION_DIR) by `strata extensions install`, from
// DuckDB's repository when online or from files given to it: a folder of
// `.duckdb_extension` files, or Python wheels (`pip download
// duckdb-extension-<name>==<version>`) that carry
// `extensions/<version>/<name>.duckdb_extension`. Installing goes through
// DuckDB's own INSTALL (from a local file when offline), so what lands in
// the folder, with its metadata, is what DuckDB itself would have put there.
//
// The warehouse calls Load when it opens: each named extension is LOADed
// from that folder, and one that is missing is a MissingError naming the
// command that installs it.
//
// This package knows DuckDB and files; it knows nothing of pipelines,
// blocks or HTTP.
package extensions
