package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// A project the user can read but not write (another user's, a read-only
// checkout) can be inspected: products, preview and backfill list/status
// open the warehouse read-only and take no write lock. They used to fail on
// creating the lock file.
func TestReadOnlyProjectCanBeInspected(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if os.Getuid() != 0 {
		t.Skip("runs the commands as user nobody, which needs root")
	}
	bin := strataproc.Binary(t)
	root := t.TempDir()
	demo := filepath.Join(root, "demo")
	if out, code := strataproc.Run(t, bin, "init", demo, "--demo"); code != 0 {
		t.Fatal(out)
	}
	out, code := strataproc.Run(t, bin, "backfill", demo, "clv", "--from", "2024-03-01", "--to", "2024-03-02")
	id := ""
	if f := strings.Fields(out); code == 0 && len(f) > 1 {
		id = strings.TrimSuffix(f[1], ":")
	}
	if id == "" {
		t.Fatalf("backfill: exit %d\n%s", code, out)
	}
	// Readable by everyone, writable by root only; the binary too.
	for _, d := range []string{filepath.Dir(bin), filepath.Dir(root)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.Chmod(p, 0o755)
		}
		return os.Chmod(p, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(demo, ".strata", "warehouse.duckdb.lock")
	_ = os.Remove(lock)
	db := filepath.Join(demo, ".strata", "warehouse.duckdb")
	before, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	asNobody := func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		cmd.Env = append(os.Environ(), "HOME="+root)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"products", demo}, "daily_customer_metrics"},
		{[]string{"preview", demo, "clv", "daily_customer_metrics", "--partition", "2024-03-02"}, "rows"},
		{[]string{"backfill", "list", demo}, id},
		{[]string{"backfill", "status", demo, id}, "succeeded"},
	} {
		out, code := asNobody(tc.args...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("strata %s as a user who cannot write the project: exit %d\n%s", strings.Join(tc.args, " "), code, out)
		}
	}
	// A write is still refused, saying why.
	if out, code := asNobody("run", demo, "clv", "--partition", "2024-03-03"); code == 0 {
		t.Errorf("a run in a read-only project succeeded:\n%s", out)
	}
	after, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	if !after.ModTime().Equal(before.ModTime()) || after.Size() != before.Size() {
		t.Errorf("inspecting changed the warehouse file")
	}
}
