package warehouse

import (
	"context"
	"crypto/sha256"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/stratahq/strata/projects/secrets"
)

// A SQL block reads S3 (or an S3-compatible server) by path:
//
//	SELECT * FROM read_parquet('s3://lake/orders/*.parquet')
//
// with the project's s3 secrets (`kind: s3` in strata.yaml). Before a
// statement that names an s3:// path runs, each s3 secret becomes a DuckDB
// secret for httpfs, `CREATE OR REPLACE TEMPORARY SECRET strata_s3_NAME
// (TYPE s3, …)`: temporary, so DuckDB keeps it in memory only, never in the
// warehouse file or its own secret folder. DuckDB chooses among several by
// their SCOPE (the longest matching prefix). The values are read again for
// every such statement (a rotated key is used at once) and the secret
// re-created only when they changed. Nothing logs the statement, and errors
// are masked like every error of a SQL block.

// s3Secrets are the s3 secrets made DuckDB secrets, by name, as the hash
// of the statement that made them (not the statement: it holds the values).
type s3Secrets struct {
	mu   sync.Mutex
	made map[string][32]byte
}

// s3Path finds the URLs httpfs reads through an s3 secret.
var s3Path = regexp.MustCompile(`(?i)\b(s3|s3a|s3n)://`)

// NeedsS3 reports whether text names an s3:// path.
func NeedsS3(text string) bool { return s3Path.MatchString(text) }

// useS3Secrets makes the project's s3 secrets DuckDB secrets when one of
// texts names an s3:// path.
func (w *Warehouse) useS3Secrets(ctx context.Context, texts ...string) error {
	store := w.masks()
	names := store.S3Names()
	if len(names) == 0 {
		return nil
	}
	need := false
	for _, t := range texts {
		need = need || NeedsS3(t)
	}
	if !need {
		return nil
	}
	if err := w.loadExtensions(ctx); err != nil {
		return err
	}
	w.s3.mu.Lock()
	defer w.s3.mu.Unlock()
	for _, name := range names {
		v, err := store.ResolveS3(name)
		if err != nil {
			return err
		}
		stmt := s3SecretStmt(name, v)
		sum := sha256.Sum256([]byte(stmt))
		if w.s3.made[name] == sum {
			continue
		}
		if _, err := w.db.ExecContext(ctx, stmt); err != nil {
			return maskError(store, fmt.Errorf("s3 secret %s: %w", name, err))
		}
		if w.s3.made == nil {
			w.s3.made = map[string][32]byte{}
		}
		w.s3.made[name] = sum
	}
	return nil
}

// s3SecretStmt is the DuckDB statement that makes s3 secret name.
func s3SecretStmt(name string, v secrets.S3Values) string {
	opts := []string{"TYPE s3", "PROVIDER config", "KEY_ID " + quoteString(v.KeyID), "SECRET " + quoteString(v.Secret)}
	if v.Endpoint != "" {
		opts = append(opts, "ENDPOINT "+quoteString(v.Endpoint))
	}
	if v.Region != "" {
		opts = append(opts, "REGION "+quoteString(v.Region))
	}
	if v.URLStyle != "" {
		opts = append(opts, "URL_STYLE "+quoteString(v.URLStyle))
	}
	if v.UseSSL != nil {
		opts = append(opts, fmt.Sprintf("USE_SSL %t", *v.UseSSL))
	}
	if v.Scope != "" {
		opts = append(opts, "SCOPE "+quoteString(v.Scope))
	}
	return "CREATE OR REPLACE TEMPORARY SECRET " + quoteIdent("strata_s3_"+strings.ToLower(name)) + " (" + strings.Join(opts, ", ") + ")"
}
