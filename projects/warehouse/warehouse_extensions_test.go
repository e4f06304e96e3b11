package warehouse

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/projects/extensions"
	"github.com/stratahq/strata/projects/extensions/exttest"
)

func TestOpenLoadsTheProjectsExtensions(t *testing.T) {
	exttest.Require(t, "postgres", "ducklake")
	ctx := context.Background()
	w, err := Open(ctx, filepath.Join(t.TempDir(), "w.duckdb"), Options{Extensions: []string{"postgres", "ducklake"}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// Every connection of the pool sees them: DuckDB loads into the database.
	for _, ext := range []string{"postgres_scanner", "ducklake"} {
		var loaded bool
		if err := w.DB().QueryRowContext(ctx, "SELECT loaded FROM duckdb_extensions() WHERE extension_name = ?", ext).Scan(&loaded); err != nil || !loaded {
			t.Errorf("%s loaded=%v (%v) after Open", ext, loaded, err)
		}
	}
}

func TestOpenWithAMissingExtensionNamesTheInstallCommand(t *testing.T) {
	t.Setenv(extensions.DirEnv, t.TempDir())
	path := filepath.Join(t.TempDir(), "w.duckdb")
	_, err := Open(context.Background(), path, Options{Extensions: []string{"postgres"}})
	var miss *extensions.MissingError
	if !errors.As(err, &miss) || !strings.Contains(err.Error(), "strata extensions install") {
		t.Fatalf("Open with postgres not installed: %v; want a MissingError naming the command", err)
	}
	// The failed Open released the file: the next one gets it.
	w, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatalf("Open after the failed one: %v", err)
	}
	w.Close()
}

// A project reloaded with a new extension gets it at the next SQL block,
// and one that is not installed fails that block with the command.
func TestSQLBlockLoadsExtensionsAddedAfterOpen(t *testing.T) {
	exttest.Require(t, "ducklake")
	ctx := context.Background()
	w, err := Open(ctx, filepath.Join(t.TempDir(), "w.duckdb"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.UseExtensions([]string{"ducklake"})
	tab, err := w.RunSQL(ctx, "SELECT loaded FROM duckdb_extensions() WHERE extension_name = 'ducklake'", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := tab.Columns()[0].Bools(); len(got) != 1 || !got[0] {
		t.Fatalf("ducklake loaded = %v after UseExtensions and a SQL block", got)
	}

	w.UseExtensions([]string{"ducklake", "no_such_extension"})
	_, err = w.RunSQL(ctx, "SELECT 1", nil, nil)
	var miss *extensions.MissingError
	if !errors.As(err, &miss) || miss.Name != "no_such_extension" {
		t.Fatalf("SQL block with an extension never installed: %v", err)
	}
}
