package extensions_test

import (
	"archive/zip"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/stratahq/strata/projects/extensions"
	"github.com/stratahq/strata/projects/extensions/exttest"
)

// isolate points the extension folder at a fresh temporary one.
func isolate(t *testing.T) extensions.Target {
	t.Helper()
	t.Setenv(extensions.DirEnv, t.TempDir())
	target, err := extensions.CurrentTarget(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return target
}

// openDB opens an in-memory DuckDB as the warehouse does: Strata's options.
func openDB(t *testing.T) *sql.DB {
	t.Helper()
	c, err := duckdb.NewConnector("?"+extensions.DSNOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	t.Cleanup(func() { db.Close() })
	return db
}

func TestTargetIsDuckDBsVersionedFolder(t *testing.T) {
	target := isolate(t)
	if target.Version != "v1.5.5" {
		t.Errorf("linked DuckDB is %s, want v1.5.5 (the pin whose extension wheels exist)", target.Version)
	}
	want := filepath.Join(os.Getenv(extensions.DirEnv), target.Version, target.Platform)
	if target.Dir != want {
		t.Errorf("extension folder %s, want %s", target.Dir, want)
	}
}

func TestInstallFromWheelFolderThenLoad(t *testing.T) {
	wheels := exttest.Wheels(t)
	target := isolate(t)
	ctx := context.Background()
	res, err := extensions.Install(ctx, []string{"ducklake", "postgres"}, extensions.Options{From: []string{wheels}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || res[0].Already || res[1].Already {
		t.Fatalf("results %+v: want two fresh installs", res)
	}
	// The postgres wheel's postgres.duckdb_extension must land under its
	// canonical name, or DuckDB finds no entry point.
	for _, f := range []string{"ducklake.duckdb_extension", "postgres_scanner.duckdb_extension", "postgres_scanner.duckdb_extension.info"} {
		if _, err := os.Stat(filepath.Join(target.Dir, f)); err != nil {
			t.Errorf("after install: %v", err)
		}
	}
	if !strings.Contains(res[1].Source, ".whl") {
		t.Errorf("postgres came from %q, want the wheel", res[1].Source)
	}

	again, err := extensions.Install(ctx, []string{"postgres"}, extensions.Options{From: []string{wheels}})
	if err != nil || !again[0].Already {
		t.Fatalf("second install: %+v, %v; want already installed", again, err)
	}

	db := openDB(t)
	if err := extensions.Load(ctx, db, []string{"ducklake", "postgres"}); err != nil {
		t.Fatal(err)
	}
	lake := filepath.Join(t.TempDir(), "lake")
	if _, err := db.ExecContext(ctx, "ATTACH 'ducklake:"+lake+".ducklake' AS lake (DATA_PATH '"+lake+"')"); err != nil {
		t.Fatalf("ATTACH ducklake after LOAD: %v", err)
	}
	var n int
	if err := db.QueryRowContext(ctx, "CREATE TABLE lake.t AS SELECT 42 AS x; SELECT x FROM lake.t").Scan(&n); err != nil || n != 42 {
		t.Fatalf("ducklake table: %d, %v", n, err)
	}
}

func TestInstallFromOneWheelFile(t *testing.T) {
	wheels := exttest.Wheels(t)
	target := isolate(t)
	w, _ := filepath.Glob(filepath.Join(wheels, "duckdb_extension_postgres-*.whl"))
	if len(w) != 1 {
		t.Fatalf("postgres wheels in %s: %v", wheels, w)
	}
	if _, err := extensions.Install(context.Background(), []string{"postgres"}, extensions.Options{From: w}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(target.Dir, "postgres_scanner.duckdb_extension")); err != nil {
		t.Fatal(err)
	}
}

func TestLoadOfMissingExtensionNamesTheCommand(t *testing.T) {
	target := isolate(t)
	err := extensions.Load(context.Background(), openDB(t), []string{"postgres"})
	var miss *extensions.MissingError
	if !errors.As(err, &miss) {
		t.Fatalf("Load of an extension never installed: %v, want a MissingError", err)
	}
	for _, want := range []string{"postgres", "strata extensions install", target.Dir} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

func TestInstallRefusesAWheelForAnotherDuckDB(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	w := filepath.Join(dir, "duckdb_extension_ducklake-1.5.6-py3-none-manylinux2014_x86_64.whl")
	writeZip(t, w, "duckdb_extension_ducklake/extensions/v1.5.6/ducklake.duckdb_extension", "not for this DuckDB")
	_, err := extensions.Install(context.Background(), []string{"ducklake"}, extensions.Options{From: []string{dir}})
	if err == nil {
		t.Fatal("installed from a wheel for DuckDB 1.5.6")
	}
	for _, want := range []string{"v1.5.5", "holds ducklake.duckdb_extension for DuckDB v1.5.6", "pip download duckdb-extension-ducklake==1.5.5"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

func TestInstallRefusesAFileThatDoesNotLoad(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ducklake.duckdb_extension"), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := extensions.Install(context.Background(), []string{"ducklake"}, extensions.Options{From: []string{dir}})
	if err == nil {
		t.Fatal("installed a file that is no extension")
	}
	if !strings.Contains(err.Error(), "ducklake") {
		t.Errorf("error %q does not name the extension", err)
	}
}

func TestInstallRefusesABadName(t *testing.T) {
	_, err := extensions.Install(context.Background(), []string{"x'; DROP"}, extensions.Options{})
	if err == nil || !strings.Contains(err.Error(), "extension name") {
		t.Fatalf("bad name: %v", err)
	}
}

// Autoload stays off: an installed extension the project did not name is
// not loaded behind its back when a query needs one of its functions or
// URLs. (DuckDB does load an installed extension for an explicit
// `ATTACH ... (TYPE postgres)` whatever the setting: the query names it.)
func TestInstalledButUnnamedExtensionIsNotAutoloaded(t *testing.T) {
	wheels := exttest.Wheels(t)
	isolate(t)
	ctx := context.Background()
	if _, err := extensions.Install(ctx, []string{"postgres", "httpfs"}, extensions.Options{From: []string{wheels}}); err != nil {
		t.Fatal(err)
	}
	db := openDB(t)
	for _, q := range []string{
		"SELECT * FROM read_csv('https://127.0.0.1:1/x.csv')",
		"SELECT * FROM postgres_query('dbname=x host=127.0.0.1 port=1', 'SELECT 1')",
	} {
		_, err := db.ExecContext(ctx, q)
		if err == nil || !strings.Contains(err.Error(), "autoload_known_extensions") {
			t.Errorf("%s: %v; want DuckDB's refusal to autoload", q, err)
		}
	}
	for _, ext := range []string{"httpfs", "postgres_scanner"} {
		var loaded bool
		if err := db.QueryRowContext(ctx, "SELECT loaded FROM duckdb_extensions() WHERE extension_name = ?", ext).Scan(&loaded); err != nil || loaded {
			t.Errorf("%s loaded=%v (%v), want installed but not loaded", ext, loaded, err)
		}
	}
}

func writeZip(t *testing.T, path, entry, body string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	w, err := zw.Create(entry)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(body)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
