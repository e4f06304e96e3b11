package sdk

import (
	"context"
	"errors"
)

// ParquetHost is a Host that lands an Export block's input as Parquet. The
// coordinator does it with DuckDB, so the SDK needs no Parquet library.
type ParquetHost interface {
	ExportParquet(ctx context.Context, dir string) (string, error)
}

// ErrNoParquet is returned by ExportParquet outside a run that can write it.
var ErrNoParquet = errors.New("ExportParquet: this run cannot write Parquet (it runs in an Export block of a project run)")

// ExportParquet writes the table this Export block received to dir (a
// path relative to the project folder, or absolute) as Parquet, one file
// per partition in hive layout: dir/day=2024-03-10/data.parquet (the
// partition's interval names the folder level; a pipeline without
// partitions writes dir/data.parquet). dir may be an S3 URL
// (s3://bucket/prefix), written through the project's s3 secrets: there an
// object appears whole when its upload ends, and a second upload replaces
// it. A local file is written under a
// temporary name and renamed, so a reader never sees half of it, and a
// partition exported again (a retry under the same ctx.ExportKey, or a
// later run) replaces its file: the folder holds each partition once. It
// returns the file's path.
func (c *Context) ExportParquet(dir string) (string, error) {
	h, ok := c.host.(ParquetHost)
	if !ok {
		return "", ErrNoParquet
	}
	return h.ExportParquet(c, dir)
}
