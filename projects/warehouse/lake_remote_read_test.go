package warehouse

import (
	"context"
	"github.com/stratahq/strata/projects/secrets"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/pgtest"
	"github.com/stratahq/strata/projects/extensions/exttest"
)

// A worker reads committed versions from a Postgres-catalog lake while the
// warehouse that writes it is open (no lock taken): exactly the versions it
// is given, never the partition's newer one, and a version retention
// removed is an error (the coordinator then reads it). The lake's password
// is in no error, and the description a worker gets holds none.
func TestReadLakeVersionsIsExactlyThePinnedVersions(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Postgres")
	}
	exttest.Require(t, "ducklake", "postgres")
	ctx := context.Background()
	pg := pgtest.Start(t)
	pg.Psql(t, "CREATE DATABASE remote_read")
	dir := t.TempDir()
	lake := &LakeOptions{
		Catalog:  "postgres:host=" + pg.Host + " port=" + strconv.Itoa(pg.Port) + " user=" + pg.User + " dbname=remote_read sslmode=disable",
		Password: pg.Password, PasswordSecret: "pg_lake", DataPath: filepath.Join(dir, "lake"),
	}
	wh := openAt(t, filepath.Join(dir, "warehouse.duckdb"), Options{Lake: lake})
	defer wh.Close()
	v1a := publish(t, wh, "daily", "2024-03-10", ids(t, 1, 2, 3))
	v1b := publish(t, wh, "daily", "2024-03-11", ids(t, 4, 5))
	publish(t, wh, "daily", "2024-03-10", ids(t, 9, 9, 9, 9)) // version 2 of the 10th, now current

	remote, ok := wh.RemoteLake()
	if !ok {
		t.Fatal("a Postgres-catalog lake in a folder is not readable by workers")
	}
	if remote.PasswordSecret != "pg_lake" || strings.Contains(remote.Catalog, pg.Password) || remote.DataPath != lake.DataPath {
		t.Fatalf("the worker's description of the lake: %+v", remote)
	}
	pinned := []VersionRef{{Product: "daily", Partition: "2024-03-10", Version: v1a.Version}, {Product: "daily", Partition: "2024-03-11", Version: v1b.Version}}
	got, err := ReadLakeVersions(ctx, remote, pg.Password, [][]VersionRef{pinned, pinned[1:]})
	if err != nil {
		t.Fatal(err)
	}
	assertNames(t, got[0], "id")
	assertRows(t, got[0], row(int64(1)), row(int64(2)), row(int64(3)), row(int64(4)), row(int64(5)))
	assertRows(t, got[1], row(int64(4)), row(int64(5)))

	// Not there (as after retention): refused, not the current version.
	gone := []VersionRef{{Product: "daily", Partition: "2024-03-10", Version: 7}}
	_, err = ReadLakeVersions(ctx, remote, pg.Password, [][]VersionRef{gone})
	assertErrContains(t, err, "daily partition 2024-03-10 version 7 is no longer in the lake")

	// A wrong password fails, and the error does not quote it.
	_, err = ReadLakeVersions(ctx, remote, "not-the-password-42", [][]VersionRef{pinned})
	if err == nil || strings.Contains(err.Error(), "not-the-password-42") {
		t.Fatalf("wrong password: %v", err)
	}
	// A catalog string with a password in it is refused outright.
	bad := remote
	bad.Catalog += " password=" + pg.Password
	if _, err := ReadLakeVersions(ctx, bad, "", [][]VersionRef{pinned}); err == nil || strings.Contains(err.Error(), pg.Password) {
		t.Fatalf("catalog with a password: %v", err)
	}
}

// A lake a worker cannot reach by itself is not offered: a DuckDB-file
// catalog (this process's alone) or a password not from a named secret.
func TestRemoteLakeOnlyWhereWorkersReachIt(t *testing.T) {
	dir := t.TempDir()
	wh := openAt(t, filepath.Join(dir, "warehouse.duckdb"), Options{Lake: fileLake(t, dir)})
	defer wh.Close()
	if _, ok := wh.RemoteLake(); ok {
		t.Error("a DuckDB-file catalog is offered to workers")
	}
	plain := openTemp(t, Options{})
	if _, ok := plain.RemoteLake(); ok && plain.backend.kind() != "ducklake" {
		t.Error("the embedded file is offered to workers")
	}
	l := &lakeBackend{opts: LakeOptions{Catalog: "postgres:host=x", DataPath: dir, Password: "pw-from-nowhere"}}
	w := &Warehouse{backend: l}
	if _, ok := w.RemoteLake(); ok {
		t.Error("a password without its secret's name is offered to workers")
	}
	l.opts.PasswordSecret = "pg"
	if _, ok := w.RemoteLake(); !ok {
		t.Error("a Postgres catalog with a named password is not offered")
	}
	l.opts.DataPath = "s3://bucket/lake/"
	l.opts.S3 = &secrets.S3Values{KeyID: "key-id-1234", Secret: "secret-1234", Endpoint: "127.0.0.1:9000"}
	if _, ok := w.RemoteLake(); ok {
		t.Error("an S3 data path whose key is not from a named s3 secret is offered to workers (they could not ask for it)")
	}
	l.opts.S3Secret = "lake_s3"
	r, ok := w.RemoteLake()
	if !ok || r.S3 == nil || r.S3.Secret != "lake_s3" || r.Key != nil {
		t.Errorf("an S3 data path with a named s3 secret: %+v, %v; want offered with the secret's name and no key", r, ok)
	}
}
