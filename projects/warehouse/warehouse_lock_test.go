package warehouse

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const helperPathEnv = "STRATA_WAREHOUSE_PATH"

// helperHold opens the warehouse, says "ready" and holds it until stdin
// closes.
func helperHold() int {
	wh, err := Open(context.Background(), os.Getenv(helperPathEnv), Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("ready")
	_, _ = io.Copy(io.Discard, os.Stdin)
	if err := wh.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// startHelper re-executes the test binary in a helper role and waits for
// its first stdout line.
func startHelper(t *testing.T, role, path string) (cmd *exec.Cmd, stdin io.WriteCloser, lines *bufio.Scanner) {
	t.Helper()
	cmd = exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+role, helperPathEnv+"="+path)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	lines = bufio.NewScanner(stdout)
	if !lines.Scan() {
		t.Fatalf("helper %s exited before its first line: %v", role, lines.Err())
	}
	return cmd, stdin, lines
}

func lockMessage(path string, pid int) string {
	return fmt.Sprintf("warehouse %s is in use by pid %d (strata start or another strata command); stop it or use its API", path, pid)
}

func TestOpenTwiceInOneProcessFails(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.duckdb")
	wh, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, path, Options{})
	var locked *LockedError
	if !errors.As(err, &locked) || locked.PID != os.Getpid() || !strings.Contains(err.Error(), "still open in this process") {
		t.Fatalf("second Open: got %v, want a LockedError naming this process", err)
	}
	if err := wh.Close(); err != nil {
		t.Fatal(err)
	}
	wh, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	wh.Close()
}

// A connection still in use when the warehouse closes keeps DuckDB's file
// open. Close says so, and the lock stays until the connection is returned:
// a reopen in the meantime is refused at once (DuckDB itself would spin until
// the old instance is gone), and succeeds afterwards.
func TestCloseWithConnectionInUseKeepsLock(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.duckdb")
	wh, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := wh.DB().QueryContext(ctx, "SELECT * FROM range(10)")
	if err != nil {
		t.Fatal(err)
	}
	defer func(d time.Duration) { closeDrain = d }(closeDrain)
	closeDrain = 50 * time.Millisecond
	if err := wh.Close(); err == nil || !strings.Contains(err.Error(), "1 connections still in use") {
		t.Fatalf("Close with rows open: %v", err)
	}
	var locked *LockedError
	if _, err := Open(ctx, path, Options{}); !errors.As(err, &locked) {
		t.Fatalf("reopen while a connection is in use: %v, want a LockedError", err)
	}
	rows.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		wh, err = Open(ctx, path, Options{})
		if err == nil {
			break
		}
		if !errors.As(err, &locked) || time.Now().After(deadline) {
			t.Fatalf("reopen after the connection was returned: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := wh.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestOpenHeldByAnotherProcessFails(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.duckdb")
	cmd, stdin, lines := startHelper(t, "hold", path)
	if lines.Text() != "ready" {
		t.Fatalf("helper said %q", lines.Text())
	}
	start := time.Now()
	_, err := Open(ctx, path, Options{})
	if err == nil || err.Error() != lockMessage(path, cmd.Process.Pid) {
		t.Fatalf("Open while another process holds it: got %v, want %q", err, lockMessage(path, cmd.Process.Pid))
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("refusal took %v; it must not wait for the holder", d)
	}
	stdin.Close() // the helper closes the warehouse and exits
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper: %v", err)
	}
	wh, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("Open after the holder exited: %v", err)
	}
	wh.Close()
	if b, _ := os.ReadFile(path + ".lock"); strings.TrimSpace(string(b)) != "" {
		t.Fatalf("lock file still names a pid after Close: %q", b)
	}
}

func TestOpenRefusesMissingDirectoryAndBadRetention(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, err := Open(ctx, filepath.Join(t.TempDir(), "nope", "w.duckdb"), Options{})
	assertErrContains(t, err, "does not exist")
	_, err = Open(ctx, filepath.Join(t.TempDir(), "w.duckdb"), Options{Retention: -1})
	assertErrContains(t, err, "retention -1 is negative")
}

func TestClosedWarehouseRefusesCalls(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	if err := wh.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := wh.Products(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("Products after Close: %v", err)
	}
	if _, err := wh.Publish(context.Background(), []Output{out("p", "2024-03-10", ids(t, 1))}); !errors.Is(err, ErrClosed) {
		t.Fatalf("Publish after Close: %v", err)
	}
}
