package warehouse

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/extensions"
	"github.com/stratahq/strata/projects/secrets"
)

// Workers' files on an S3 data path. On a DuckLake whose data is a prefix
// in an S3-compatible bucket, a worker writes a block's output there and
// reads its upstreams' outputs there itself, as it does on a shared folder
// (lake_file_output.go, lake_file_input.go): through DuckDB's httpfs, in a
// DuckDB of this process opened with Strata's extension settings (no
// autoinstall, $STRATA_EXTENSION_DIR). The bucket's key never travels with
// the task: the task names the project's s3 secret and carries only its
// settings (endpoint, region, URL style), and the worker asks the
// coordinator for the key id and the secret through the sealed host call,
// as it asks for a Postgres catalog's password. The key lives in this
// process's memory, as a temporary DuckDB secret scoped to the data path,
// and is masked in every error.
//
// An S3 PUT is atomic (the object appears whole when its upload
// completes), so the file is written under its final name, with no rename.

// LakeS3 is how a machine reaches an S3 data path, without the key: the
// s3 secret to ask for it by name, and the settings that are not secret.
type LakeS3 struct {
	DataPath string // s3://bucket/prefix/
	Secret   string // the project's s3 secret (kind: s3)
	Endpoint string
	Region   string
	URLStyle string
	UseSSL   *bool
	Scope    string
}

// Keyless is v without its key id and secret: what may travel in a task.
func Keyless(dataPath, secret string, v secrets.S3Values) *LakeS3 {
	return &LakeS3{DataPath: dataPath, Secret: secret, Endpoint: v.Endpoint, Region: v.Region, URLStyle: v.URLStyle, UseSSL: v.UseSSL, Scope: v.Scope}
}

// WithKey is the full s3 secret: these settings and the key the worker was
// given sealed, scoped to the data path unless the secret names its own
// scope.
func (s *LakeS3) WithKey(keyID, secret string) *secrets.S3Values {
	v := &secrets.S3Values{KeyID: keyID, Secret: secret, Endpoint: s.Endpoint, Region: s.Region, URLStyle: s.URLStyle, UseSSL: s.UseSSL, Scope: s.Scope}
	if v.Scope == "" {
		v.Scope = s.DataPath
	}
	return v
}

// isURL says whether a data path or a file is in a bucket rather than a
// folder.
func isURL(p string) bool { return strings.Contains(p, "://") }

// s3Files is the DuckDB that writes and reads workers' files in a bucket,
// opened on first use and kept for the process, with the data paths' keys
// made temporary secrets in it (by the hash of the statement that made
// each, never the statement: it holds the key).
var s3Files struct {
	once sync.Once
	db   *sql.DB
	err  error

	mu   sync.Mutex
	made map[string][32]byte
}

// S3FilesReady opens the DuckDB that writes and reads workers' files in a
// bucket, httpfs loaded: a worker calls it before it asks for the key, so
// one that could not use the key does not ask for it.
func S3FilesReady(ctx context.Context) error {
	s3Files.once.Do(func() {
		connector, err := duckdb.NewConnector("?"+extensions.DSNOptions(), nil)
		if err != nil {
			s3Files.err = err
			return
		}
		db := sql.OpenDB(connector)
		if _, err := db.ExecContext(context.WithoutCancel(ctx), "LOAD httpfs"); err != nil { // kept for the process
			db.Close()
			s3Files.err = fmt.Errorf("a worker writes and reads an S3 data path with the DuckDB extension httpfs: run `strata extensions install DIR --name httpfs`: %w", err)
			return
		}
		s3Files.db = db
	})
	return s3Files.err
}

// s3FileDB is that DuckDB with key a secret for its scope (re-made only
// when the key or settings changed). path is the file or data path it is
// for, named in errors.
func s3FileDB(ctx context.Context, path string, key *secrets.S3Values) (*sql.DB, error) {
	if key == nil || key.Scope == "" {
		return nil, fmt.Errorf("%s is in S3 and no key was given to reach it", path)
	}
	if err := S3FilesReady(ctx); err != nil {
		return nil, err
	}
	v := *key
	scope := sha256.Sum256([]byte(v.Scope))
	stmt := s3SecretStmt("_lake_files_"+hex.EncodeToString(scope[:6]), v)
	sum := sha256.Sum256([]byte(stmt))
	s3Files.mu.Lock()
	defer s3Files.mu.Unlock()
	if s3Files.made[v.Scope] != sum {
		if _, err := s3Files.db.ExecContext(ctx, stmt); err != nil {
			return nil, fmt.Errorf("the S3 key for %s: %s", path, maskS3(err.Error(), key))
		}
		if s3Files.made == nil {
			s3Files.made = map[string][32]byte{}
		}
		s3Files.made[v.Scope] = sum
	}
	return s3Files.db, nil
}

// maskS3 hides key's id and secret in text.
func maskS3(s string, key *secrets.S3Values) string {
	if key == nil {
		return s
	}
	for _, h := range []string{key.KeyID, key.Secret} {
		if h != "" {
			s = strings.ReplaceAll(s, h, "***")
		}
	}
	return s
}

// filesDB is the DuckDB that writes or reads a worker's file at path: the
// bucket's for a URL, the local one for a folder.
func filesDB(ctx context.Context, path string, key *secrets.S3Values) (*sql.DB, error) {
	if isURL(path) {
		return s3FileDB(ctx, path, key)
	}
	return fileDB()
}

// joinURL joins a bucket prefix and path elements with single slashes.
func joinURL(base string, elems ...string) string {
	out := strings.TrimSuffix(base, "/")
	for _, e := range elems {
		out += "/" + strings.Trim(e, "/")
	}
	return out
}

// underDataPath says whether the file at path is inside the data path dp
// (both URLs): a prefix, and no step back out of it.
func underDataPath(dp, path string) bool {
	prefix := strings.TrimSuffix(dp, "/") + "/"
	return strings.HasPrefix(path, prefix) && !strings.Contains(path, "/../") && !strings.HasSuffix(path, "/..")
}

// lakeS3 is how a worker reaches this lake's S3 data path without its key;
// nil for a folder, and for a key that does not come from a named s3
// secret (a worker could not ask for it).
func (l *lakeBackend) lakeS3() *LakeS3 {
	if l.opts.S3 == nil || l.opts.S3Secret == "" {
		return nil
	}
	return Keyless(l.opts.DataPath, l.opts.S3Secret, *l.opts.S3)
}

// writeS3File is WriteLakeFile into a bucket: straight to the final name
// in the storage table's prefix (where the lake puts its own files).
// Measured on SeaweedFS here, with the bucket warm: 8–12 ms an output of
// 900 rows through httpfs, no faster written to a local file and PUT in
// one request (7–22 ms); a fresh bucket's first write takes seconds either
// way (the server grows its volumes).
func writeS3File(ctx context.Context, s FileSink, t *sdk.Table, schema []sdk.Field) (*WrittenFile, error) {
	db, err := s3FileDB(ctx, s.DataPath, s.Key)
	if err != nil {
		return nil, err
	}
	path := joinURL(s.DataPath, catalogSchema, storageTableName(s.Product, schema), fileName(s))
	size, err := copyToParquet(ctx, db, s, t, schema, path)
	if err != nil {
		return nil, fmt.Errorf("write the output of %s partition %s as Parquet to %s: %s", s.Product, s.Partition, path, maskS3(err.Error(), s.Key))
	}
	return &WrittenFile{Path: path, Rows: int64(t.Len()), Bytes: size, Hash: contentHash(t, schema), Schema: schema,
		Partition: s.Partition, Version: s.Version}, nil
}

// DataS3 is how a worker reaches this lake's data path when it is in a
// bucket, without the key (nil for a folder, the embedded file, or a key
// not from a named s3 secret): sent with the tasks whose files are there.
func (w *Warehouse) DataS3() *LakeS3 {
	lb, ok := w.backend.(*lakeBackend)
	if !ok || !isURL(lb.opts.DataPath) {
		return nil
	}
	return lb.lakeS3()
}
