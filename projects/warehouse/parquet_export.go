package warehouse

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

// WriteParquet writes t as one Parquet file at path, through DuckDB's COPY
// TO: first to a temporary name beside it, then renamed over path, so a
// reader (a BI tool over a hive-partitioned folder) sees the old file or
// the new one, never half of one, and an export run again under the same
// key replaces its file instead of adding a second copy.
func (w *Warehouse) WriteParquet(ctx context.Context, t *sdk.Table, path string) error {
	if err := t.Validate(); err != nil {
		return fmt.Errorf("write parquet %s: %w", path, err)
	}
	if len(t.Columns()) == 0 {
		return fmt.Errorf("write parquet %s: the table has no columns", path)
	}
	if NeedsS3(path) {
		return w.writeParquetS3(ctx, t, path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write parquet: %w", err)
	}
	tmp := filepath.Join(filepath.Dir(path), fmt.Sprintf(".%s.tmp-%d-%d", filepath.Base(path), os.Getpid(), nextHandle.Add(1)))
	err := w.write(ctx, func(tx *writeTx) error {
		h, release := handOver(t)
		defer release()
		// COPY takes no parameters: the handle and the path are literals.
		_, err := tx.conn.ExecContext(tx.ctx, fmt.Sprintf(`COPY (SELECT * FROM %s(%d)) TO %s (FORMAT parquet)`,
			tableSourceFunc, h, quoteLiteral(tmp)))
		return err
	})
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write parquet %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write parquet: %w", err)
	}
	return nil
}

// writeParquetS3 writes t to an s3:// path through httpfs and the
// project's s3 secrets. There is no rename in S3, and none is needed: an
// object appears whole when its upload completes, and a second upload to the
// same key replaces it, so the bucket holds each partition once.
func (w *Warehouse) writeParquetS3(ctx context.Context, t *sdk.Table, path string) error {
	if err := w.useS3Secrets(ctx, path); err != nil {
		return fmt.Errorf("write parquet %s: %w", path, err)
	}
	err := w.write(ctx, func(tx *writeTx) error {
		h, release := handOver(t)
		defer release()
		_, err := tx.conn.ExecContext(tx.ctx, fmt.Sprintf(`COPY (SELECT * FROM %s(%d)) TO %s (FORMAT parquet)`,
			tableSourceFunc, h, quoteLiteral(path)))
		return err
	})
	if err != nil {
		return maskError(w.masks(), fmt.Errorf("write parquet %s: %w", path, err))
	}
	return nil
}

// HivePath is dir/column=value/file with value made safe for a folder name.
// dir may be a URL (s3://bucket/prefix): its path is joined with /.
func HivePath(dir, column, value, file string) string {
	safe := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 {
			return '_'
		}
		return r
	}, value)
	return JoinPath(dir, column+"="+safe, file)
}

// JoinPath joins a folder and names: with / after a URL's scheme
// (s3://bucket/a + b = s3://bucket/a/b), else as file paths.
func JoinPath(dir string, elem ...string) string {
	if scheme, rest, ok := strings.Cut(dir, "://"); ok {
		return scheme + "://" + strings.TrimSuffix(path.Join(append([]string{rest}, elem...)...), "/")
	}
	return filepath.Join(append([]string{dir}, elem...)...)
}
