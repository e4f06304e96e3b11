package warehouse

import (
	"context"
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/secrets"
)

// InputFile is an output a worker wrote (WrittenFile) that a block of the
// same run reads as its input: on whichever machine runs that block, from
// the shared data folder, so the rows never travel through the coordinator.
type InputFile struct {
	Path      string
	Partition string
	Version   int
	Rows      int64
	Hash      string
	// Key is the key of a file in a bucket (s3://…), as the reader was
	// given it; nil for a file in a folder.
	Key *secrets.S3Values
}

// ReadLakeFile reads the output a worker wrote (WriteLakeFile) back into a
// table, as the block that wrote it returned it: the warehouse's
// _partition and _version columns left out. The file must hold exactly that
// output: its partition's rows of its version, as many as written and with
// the same content hash, or the read fails (a block reads the version its
// run produced or nothing). A file is written once under a unique name and
// renamed into place, and the orphan sweep leaves files younger than its
// grace alone, so a file of the running run is whole and still there.
func ReadLakeFile(ctx context.Context, f InputFile) (*sdk.Table, error) {
	t, err := readLakeFile(ctx, f)
	if err != nil && f.Key != nil {
		return nil, fmt.Errorf("%s", maskS3(err.Error(), f.Key))
	}
	return t, err
}

// ReadWrittenFile reads a worker's output file on this machine with the
// lake's own key when it is in the lake's bucket: how the coordinator
// reads a file for an executor that could not.
func (w *Warehouse) ReadWrittenFile(ctx context.Context, f InputFile) (*sdk.Table, error) {
	if lb, ok := w.backend.(*lakeBackend); ok && isURL(f.Path) && f.Key == nil && lb.opts.S3 != nil {
		if err := lb.holds(f.Path); err != nil {
			return nil, err
		}
		v := *lb.opts.S3
		if v.Scope == "" {
			v.Scope = lb.opts.DataPath
		}
		f.Key = &v
	}
	return ReadLakeFile(ctx, f)
}

func readLakeFile(ctx context.Context, f InputFile) (*sdk.Table, error) {
	db, err := filesDB(ctx, f.Path, f.Key)
	if err != nil {
		return nil, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	q := fmt.Sprintf("SELECT * EXCLUDE (%s, %s) FROM read_parquet(%s) WHERE %s = %s AND %s = %d",
		colPartition, colVersion, quoteLiteral(f.Path), colPartition, quoteLiteral(f.Partition), colVersion, f.Version)
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("read the output file %s: %w", f.Path, err)
	}
	defer rows.Close()
	t, err := scanTable(rows)
	if err != nil {
		return nil, fmt.Errorf("read the output file %s: %w", f.Path, err)
	}
	if int64(t.Len()) != f.Rows {
		return nil, fmt.Errorf("the output file %s holds %d rows of %s version %d, not the %d written", f.Path, t.Len(), f.Partition, f.Version, f.Rows)
	}
	schema, err := tableSchema(t)
	if err != nil {
		return nil, err
	}
	if h := contentHash(t, schema); h != f.Hash {
		return nil, fmt.Errorf("the output file %s does not hold the rows written for %s version %d (content hash %s, want %s)", f.Path, f.Partition, f.Version, h, f.Hash)
	}
	return t, nil
}
