package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/secrets"
	"github.com/stratahq/strata/projects/warehouse"
)

// warehouseOptions are the warehouse settings of proj: retention, files,
// extensions and, with `warehouse: {kind: ducklake}`, the lake, whose
// catalog password and an S3 data path's key are read from the project's
// secrets now (never stored).
func warehouseOptions(proj *project.Project, readOnly bool) (warehouse.Options, error) {
	o := warehouse.Options{Retention: proj.Retention, ReadOnly: readOnly, FilesDir: proj.Dir, Extensions: proj.Extensions}
	wc := proj.Warehouse
	if !wc.Lake() {
		return o, nil
	}
	o.Lake = &warehouse.LakeOptions{Catalog: wc.Catalog, DataPath: wc.DataPath, KeepSnapshots: wc.KeepSnapshots}
	if s := os.Getenv(workerFilesMinRowsEnv); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return o, fmt.Errorf("$%s=%q: want a number of rows, 1 or more", workerFilesMinRowsEnv, s)
		}
		o.Lake.FileMinRows = n
	}
	if s := os.Getenv(lakeThreadsEnv); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return o, fmt.Errorf("$%s=%q: want DuckDB's threads on the lake, 1 or more (default %d)", lakeThreadsEnv, s, warehouse.DefaultLakeThreads())
		}
		o.Lake.Threads = n
	}
	if wc.Password != "" {
		pw, err := secrets.New(proj.Dir, proj.Secrets).Resolve(wc.Password)
		if err != nil {
			return o, fmt.Errorf("strata.yaml warehouse.password: %w", err)
		}
		o.Lake.Password, o.Lake.PasswordSecret = pw, wc.Password
	}
	if wc.S3Secret != "" {
		v, err := secrets.New(proj.Dir, proj.Secrets).ResolveS3(wc.S3Secret)
		if err != nil {
			return o, fmt.Errorf("strata.yaml warehouse.s3_secret: %w", err)
		}
		o.Lake.S3, o.Lake.S3Secret = &v, wc.S3Secret
	}
	return o, nil
}

// workerFilesMinRowsEnv tunes warehouse.LakeOptions.FileMinRows: outputs
// with fewer rows come back from workers as tables.
const workerFilesMinRowsEnv = "STRATA_WORKER_FILES_MIN_ROWS"

// lakeThreadsEnv sets warehouse.LakeOptions.Threads: DuckDB's threads on a
// lake, fixed at open (projects/warehouse/lake_threads.go).
const lakeThreadsEnv = "STRATA_LAKE_THREADS"
