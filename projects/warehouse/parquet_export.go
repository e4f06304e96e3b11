package warehouse

import (
	"context"
	"fmt"
	"os"
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

// HivePath is dir/column=value/file with value made safe for a folder name.
func HivePath(dir, column, value, file string) string {
	safe := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 {
			return '_'
		}
		return r
	}, value)
	return filepath.Join(dir, column+"="+safe, file)
}
