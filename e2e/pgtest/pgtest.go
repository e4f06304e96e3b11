// Package pgtest starts throwaway Postgres clusters for tests: a real
// server from Debian's postgresql package (initdb in a temporary folder, a
// free port on 127.0.0.1, a password), stopped and removed when the test
// ends. No mock: what a test reads and writes goes through real Postgres.
//
// Without Postgres binaries a test is skipped with the reason, except
// under CI (CI=true), where it fails: `make setup` installs the package,
// and CI must not pass by skipping what it never ran.
//
// initdb and the server refuse to run as root, so as root they run as the
// `postgres` user the Debian package creates (the folder is theirs);
// otherwise as the current user.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Cluster is a running throwaway Postgres.
type Cluster struct {
	BinDir   string // the Postgres binaries (initdb, postgres, psql)
	Dir      string // the temporary folder: data, log, socket
	Host     string // 127.0.0.1
	Port     int
	User     string
	Password string
	Database string

	cmd  *exec.Cmd
	done chan error
}

// DSN is the cluster as a URL: postgres://user:password@127.0.0.1:port/db.
func (c *Cluster) DSN() string {
	u := url.URL{Scheme: "postgres", User: url.UserPassword(c.User, c.Password), Host: net.JoinHostPort(c.Host, strconv.Itoa(c.Port)), Path: "/" + c.Database}
	return u.String() + "?sslmode=disable"
}

// ConnString is the cluster in libpq's key=value form, what DuckDB's
// `ATTACH '…' (TYPE postgres)` takes.
func (c *Cluster) ConnString() string {
	return fmt.Sprintf("host=%s port=%d user=%s password=%s dbname=%s sslmode=disable", c.Host, c.Port, c.User, c.Password, c.Database)
}

// BinDir finds the Postgres binaries: the newest of Debian's
// /usr/lib/postgresql/*/bin, else initdb on PATH. Empty when there are none.
func BinDir() string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return pgMajor(dirs[i]) > pgMajor(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p)
	}
	return ""
}

func pgMajor(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// Start starts a cluster for t; it is stopped and its folder removed when
// t ends.
func Start(t testing.TB) *Cluster {
	t.Helper()
	bin := BinDir()
	if bin == "" {
		why := "no Postgres binaries (initdb) in /usr/lib/postgresql/*/bin or on PATH: make setup installs Debian's postgresql"
		if os.Getenv("CI") == "true" {
			t.Fatal(why + "; CI must run the Postgres tests")
		}
		t.Skip(why)
	}
	c, err := start(bin)
	if err != nil {
		t.Fatalf("start a throwaway Postgres: %v", err)
	}
	t.Cleanup(c.stop)
	return c
}

func start(bin string) (*Cluster, error) {
	owner, err := runAs()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "strata-pg-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{BinDir: bin, Dir: dir, Host: "127.0.0.1", User: "strata", Password: randomHex(12), Database: "postgres"}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(dir)
		}
	}()
	pw := filepath.Join(dir, "pwfile")
	if err := os.WriteFile(pw, []byte(c.Password+"\n"), 0o600); err != nil {
		return nil, err
	}
	if owner != nil {
		for _, p := range []string{dir, pw} {
			if err := os.Chown(p, int(owner.Uid), int(owner.Gid)); err != nil {
				return nil, fmt.Errorf("give %s to the postgres user: %w", p, err)
			}
		}
	}
	data := filepath.Join(dir, "data")
	initdb := c.command(owner, "initdb", "-D", data, "-U", c.User, "--pwfile="+pw, "--auth=scram-sha-256",
		"--encoding=UTF8", "--locale=C", "--no-sync")
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("initdb: %w\n%s", err, out)
	}
	// A free port can be taken between asking and listening: try again.
	for attempt := 0; ; attempt++ {
		c.Port, err = freePort()
		if err != nil {
			return nil, err
		}
		err = c.serve(owner, data)
		if err == nil {
			ok = true
			return c, nil
		}
		if attempt == 2 {
			return nil, err
		}
	}
}

// serve starts the server on c.Port and waits until it accepts logins.
func (c *Cluster) serve(owner *syscall.Credential, data string) error {
	logPath := filepath.Join(c.Dir, "postgres.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close()
	// Durability is not what these clusters are for: no fsync makes
	// them start and write fast.
	cmd := c.command(owner, "postgres", "-D", data, "-p", strconv.Itoa(c.Port), "-k", c.Dir,
		"-c", "listen_addresses="+c.Host, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// The server dies with the test process, even when that is killed.
	cmd.SysProcAttr.Pdeathsig = syscall.SIGQUIT
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start postgres: %w", err)
	}
	c.cmd, c.done = cmd, make(chan error, 1)
	go func() { c.done <- cmd.Wait() }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ready := c.command(nil, "pg_isready", "-h", c.Host, "-p", strconv.Itoa(c.Port), "-U", c.User, "-d", c.Database)
		if ready.Run() == nil {
			return nil
		}
		select {
		case err := <-c.done:
			log, _ := os.ReadFile(logPath)
			return fmt.Errorf("postgres exited (%v) before it accepted connections on port %d:\n%s", err, c.Port, log)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			c.stop()
			log, _ := os.ReadFile(logPath)
			return fmt.Errorf("postgres did not accept connections on port %d within a minute:\n%s", c.Port, log)
		}
	}
}

// stop shuts the server down fast (SIGINT: no waiting for clients) and
// removes its folder.
func (c *Cluster) stop() {
	if c.cmd != nil && c.cmd.Process != nil {
		_ = c.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-c.done:
		case <-time.After(15 * time.Second):
			_ = c.cmd.Process.Kill()
			<-c.done
		}
		c.cmd = nil
	}
	os.RemoveAll(c.Dir)
}

// Psql runs SQL through psql against the cluster and returns what it
// printed (unaligned, tuples only: one row a line, columns split by |).
func (c *Cluster) Psql(t testing.TB, sql string) string {
	t.Helper()
	out, err := c.PsqlErr(context.Background(), sql)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// PsqlErr is Psql returning its error instead of failing the test.
func (c *Cluster) PsqlErr(ctx context.Context, sql string) (string, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(c.BinDir, "psql"), "-h", c.Host, "-p", strconv.Itoa(c.Port), "-U", c.User, "-d", c.Database,
		"-v", "ON_ERROR_STOP=1", "-X", "-q", "-At", "-c", sql)
	cmd.Env = append(minimalEnv(), "PGPASSWORD="+c.Password)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("psql %q: %w\n%s", sql, err, out)
	}
	return strings.TrimRight(string(out), "\n"), nil
}

// command is one of the cluster's binaries, run as owner when set.
func (c *Cluster) command(owner *syscall.Credential, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(c.BinDir, name), args...)
	cmd.Env = minimalEnv()
	cmd.Dir = c.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: owner}
	return cmd
}

func minimalEnv() []string {
	return []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C", "LC_ALL=C"}
}

// runAs is the postgres user when this process is root (initdb refuses
// root), nil otherwise.
func runAs() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, Postgres must run as the postgres user (Debian's postgresql package creates it): %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	return hex.EncodeToString(b)
}
