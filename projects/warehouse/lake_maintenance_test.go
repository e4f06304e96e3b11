package warehouse

import (
	"bufio"
	"context"
	"database/sql/driver"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// parquetFiles are the Parquet files under a lake's data path and their bytes.
func parquetFiles(t *testing.T, dir string) (int, int64) {
	t.Helper()
	n, size := 0, int64(0)
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".parquet") {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		n, size = n+1, size+info.Size()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n, size
}

// On a lake, retention's deletes leave the disk: after a sweep the files
// of dropped versions are rewritten away, old snapshots expire and the
// files no snapshot needs are deleted, while every kept version reads as
// before.
func TestLakeRetentionExpiresSnapshotsAndDeletesFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	lake := fileLake(t, dir)
	lake.KeepSnapshots = time.Microsecond
	wh := openAt(t, filepath.Join(dir, "w.duckdb"), Options{Retention: 1, Lake: lake})
	defer wh.Close()
	for i := range 8 {
		publish(t, wh, "big", "2024-03-10", bigTable(20_000, int64(i), false))
	}
	files, bytes := parquetFiles(t, lake.DataPath)
	var snapshots int
	scan := func() {
		if err := wh.DB().QueryRowContext(ctx, `SELECT count(*) FROM ducklake_snapshots('`+LakeName+`')`).Scan(&snapshots); err != nil {
			t.Fatal(err)
		}
	}
	scan()
	if err := wh.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	filesAfter, bytesAfter := parquetFiles(t, lake.DataPath)
	before := snapshots
	scan()
	t.Logf("8 versions, retention 1: %d Parquet files (%d bytes) and %d snapshots -> %d files (%d bytes) and %d snapshots",
		files, bytes, before, filesAfter, bytesAfter, snapshots)
	if filesAfter > 2 || bytesAfter*3 > bytes {
		t.Fatalf("after maintenance %d files (%d bytes) of %d (%d bytes): the dropped versions' files stayed", filesAfter, bytesAfter, files, bytes)
	}
	if snapshots >= before {
		t.Fatalf("snapshots %d -> %d: none expired", before, snapshots)
	}
	if versions, current := versionsOf(t, wh, "big", "2024-03-10"); len(versions) != 1 || current != 8 {
		t.Fatalf("versions %v current %d, want 8 alone (retention 1)", versions, current)
	}
	if got := scalar(t, wh, `SELECT count(*) FROM big`); got != 20_000 {
		t.Fatalf("current rows %d, want 20000", got)
	}
	checkIntegrity(t, wh)
}

// ageFiles sets back the modification time of every file under dir.
func ageFiles(t *testing.T, dir string, by time.Duration) {
	t.Helper()
	then := time.Now().Add(-by)
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(p, then, then)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// blockBeforeCommit holds a write transaction open after its rows are
// written: the helper is killed there, as a writer killed mid-write.
type blockBeforeCommit struct{}

func (blockBeforeCommit) BeforeCommit(driver.Conn, []any) error {
	os.Stdout.WriteString("writing\n")
	select {}
}
func (blockBeforeCommit) AfterCommit(error) {}

const helperLakeEnv = "STRATA_WAREHOUSE_LAKE"

// helperLakeHang publishes one version, then a second that it never commits.
func helperLakeHang() int {
	ctx := context.Background()
	var lake LakeOptions
	if err := json.Unmarshal([]byte(os.Getenv(helperLakeEnv)), &lake); err != nil {
		return 2
	}
	wh, err := Open(ctx, os.Getenv(helperPathEnv), Options{Lake: &lake})
	if err != nil {
		os.Stderr.WriteString(err.Error())
		return 1
	}
	if _, err := wh.Publish(ctx, []Output{out("big", "2024-03-10", bigTable(20_000, 1, false))}); err != nil {
		return 1
	}
	wh.SetCommitHook(blockBeforeCommit{})
	_, _ = wh.Publish(ctx, []Output{out("big", "2024-03-11", bigTable(50_000, 2, false))})
	return 1
}

// A writer killed with its rows written to Parquet but not committed
// leaves files the catalog does not know; the next Open keeps them (they
// are too young to tell from a write under way), maintenance deletes them
// once older than the grace, and the committed version reads whole.
func TestLakeOrphanFilesOfAKilledWriterAreSwept(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a writing process")
	}
	t.Parallel()
	dir := t.TempDir()
	lake := fileLake(t, dir)
	path := filepath.Join(dir, "w.duckdb")
	spec, _ := json.Marshal(lake)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=lake-hang", helperPathEnv+"="+path, helperLakeEnv+"="+string(spec))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() || lines.Text() != "writing" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("helper did not reach its second commit: %q %s", lines.Text(), stderr.String())
	}
	left, _ := parquetFiles(t, lake.DataPath)
	_ = cmd.Process.Kill()
	_ = cmd.Wait()

	wh := openAt(t, path, Options{Lake: lake})
	defer wh.Close()
	// Just written, the files could be a write under way elsewhere: kept.
	if files, _ := parquetFiles(t, lake.DataPath); files != left {
		t.Fatalf("the killed writer left %d files, %d after the reopen: a file younger than the grace was swept", left, files)
	}
	if got := scalar(t, wh, `SELECT count(*) FROM big`); got != 20_000 {
		t.Fatalf("rows %d, want the committed 20000 only", got)
	}
	// Once older than the grace, the next maintenance deletes them.
	ageFiles(t, lake.DataPath, 2*DefaultOrphanGrace)
	if err := wh.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	files, _ := parquetFiles(t, lake.DataPath)
	t.Logf("Parquet files: %d while the killed writer held its transaction, %d after the grace", left, files)
	if files >= left {
		t.Fatalf("the killed writer left %d files, %d after the grace: nothing was swept", left, files)
	}
	if got := scalar(t, wh, `SELECT count(*) FROM big`); got != 20_000 {
		t.Fatalf("rows %d, want the committed 20000 only", got)
	}
	if n := scalar(t, wh, `SELECT count(*) FROM _strata.versions WHERE partition = '2024-03-11'`); n != 0 {
		t.Fatalf("the uncommitted version is catalogued: %d rows", n)
	}
	checkIntegrity(t, wh)
}
