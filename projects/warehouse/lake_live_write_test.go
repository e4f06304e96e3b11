package warehouse

import (
	"bufio"
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/pgtest"
)

// holdBeforeCommit holds a write transaction open after its rows are
// written until a line arrives on stdin, then lets it commit.
type holdBeforeCommit struct{}

func (holdBeforeCommit) BeforeCommit(driver.Conn, []any) error {
	os.Stdout.WriteString("writing\n")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	return nil
}
func (holdBeforeCommit) AfterCommit(error) {}

// helperLakeHold publishes one version, then a second whose commit waits
// for the test, and says whether it committed.
func helperLakeHold() int {
	ctx := context.Background()
	var lake LakeOptions
	if err := json.Unmarshal([]byte(os.Getenv(helperLakeEnv)), &lake); err != nil {
		return 2
	}
	wh, err := Open(ctx, os.Getenv(helperPathEnv), Options{Lake: &lake})
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer wh.Close()
	if _, err := wh.Publish(ctx, []Output{out("big", "2024-03-10", bigTable(20_000, 1, false))}); err != nil {
		fmt.Println(err)
		return 1
	}
	wh.SetCommitHook(holdBeforeCommit{})
	if _, err := wh.Publish(ctx, []Output{out("big", "2024-03-11", bigTable(50_000, 2, false))}); err != nil {
		fmt.Println("publish:", err)
		return 1
	}
	fmt.Println("committed")
	return 0
}

// A write under way is not swept: one process (a coordinator) has written
// its version's Parquet into the lake and not committed yet, while another
// opens the same lake (a second coordinator, one on another machine: the
// warehouse lock is one machine's) and maintains it. The files the catalog
// does not know yet stay, the first commits, and its version reads whole.
//
// Before the grace (OrphanGrace), the Open's orphan sweep deleted every
// file the catalog did not know: the live write's Parquet went, and its
// commit then catalogued a version whose file was gone.
func TestLakeFilesOfALiveWriteAreNotSwept(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Postgres and a writing process")
	}
	pg := pgtest.Start(t)
	dir := t.TempDir()
	lake := postgresLake(pg)(t, dir)
	spec, _ := json.Marshal(lake)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=lake-hold", helperPathEnv+"="+filepath.Join(dir, "a.duckdb"), helperLakeEnv+"="+string(spec))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() || lines.Text() != "writing" {
		t.Fatalf("helper did not reach its second commit: %q %s", lines.Text(), stderr.String())
	}
	writing, _ := parquetFiles(t, lake.DataPath)

	// The second process opens, maintains (at Open, at a sweep) and closes.
	other := filepath.Join(t.TempDir(), "b.duckdb")
	wh, err := Open(context.Background(), other, Options{Lake: lake})
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	after, _ := parquetFiles(t, lake.DataPath)
	t.Logf("Parquet files while the write was under way: %d; after another process maintained the lake: %d", writing, after)
	if after < writing {
		t.Errorf("another process's maintenance deleted %d files of a write under way", writing-after)
	}
	if err := wh.Close(); err != nil {
		t.Fatal(err)
	}

	if _, err := io.WriteString(stdin, "commit\n"); err != nil {
		t.Fatal(err)
	}
	if !lines.Scan() || lines.Text() != "committed" {
		t.Fatalf("the held write did not commit: %q %s", lines.Text(), stderr.String())
	}
	_ = cmd.Wait()
	wh = openAt(t, other, Options{Lake: lake})
	defer wh.Close()
	var n int64
	if err := wh.DB().QueryRowContext(context.Background(), `SELECT count(*) FROM big`).Scan(&n); err != nil {
		t.Fatalf("reading the product after the held write committed: %v", err)
	}
	if n != 70_000 {
		t.Fatalf("rows %d, want 70000 (both versions)", n)
	}
	checkIntegrity(t, wh)
}
