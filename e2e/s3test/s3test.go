// Package s3test starts throwaway S3-compatible servers for tests: a real
// SeaweedFS (`weed server -s3`, master, volume, filer and S3 gateway in one
// process) in a temporary folder, every port a free one on 127.0.0.1, one
// access key, stopped and removed when the test ends. No mock: what a test
// reads and writes goes through a real S3 API with real SigV4 signatures.
//
//	srv := s3test.Start(t)                 // skips (fails under CI=true) when weed is missing
//	srv.CreateBucket(t, "lake")
//	srv.Put(t, "lake", "raw/a.csv", []byte("id\n1\n"))
//	body := srv.Get(t, "lake", "raw/a.csv")
//	keys := srv.List(t, "lake", "raw/")    // sorted object keys under a prefix
//	db.Exec(srv.DuckDBSecret("lake_s3"))   // CREATE TEMPORARY SECRET … (TYPE s3, …) for httpfs
//
// For a client of its own (the AWS SDK, DuckDB, strata's s3 secret) a test
// uses the fields: Endpoint (host:port), URL (http://host:port), Region,
// KeyID and Secret; requests are path-style (http://host:port/bucket/key),
// over plain HTTP.
//
// The weed binary is found, in order: $STRATA_WEED; the folder `make setup`
// installs it to, ToolDir()/weed; `weed` on PATH. Without one a test is
// skipped with the reason, except under CI (CI=true), where it fails: CI must
// not pass by skipping what it never ran.
//
// The server is kept off the network beyond loopback: it binds 127.0.0.1,
// its anonymous usage report (telemetry) is switched off, and it runs with
// its own HOME and working folder so no seaweedfs configuration of the
// machine is read.
package s3test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// WeedVersion is the SeaweedFS module version `make setup` installs (the
// pseudo-version the Go module proxy serves); ToolDir is named after it.
const WeedVersion = "v0.0.0-20261109003541-7506e5f91cd6"

// Server is a running throwaway SeaweedFS with its S3 gateway.
type Server struct {
	Endpoint string // 127.0.0.1:PORT, the S3 gateway (what DuckDB's ENDPOINT takes)
	URL      string // http://127.0.0.1:PORT
	Region   string // us-east-1 (SeaweedFS accepts any; signatures must agree)
	KeyID    string // the access key id
	Secret   string // the secret access key
	Dir      string // the temporary folder: data, config, log

	cmd  *exec.Cmd
	done chan error
	log  string
}

// ToolDir is the folder `make setup` builds weed into:
// $HOME/.cache/strata/tools/seaweedfs-<WeedVersion>.
func ToolDir() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".cache", "strata", "tools", "seaweedfs-"+WeedVersion)
}

// WeedPath finds the weed binary (see the package doc); empty when there is none.
func WeedPath() string {
	if p := os.Getenv("STRATA_WEED"); p != "" {
		return p
	}
	if d := ToolDir(); d != "" {
		if st, err := os.Stat(filepath.Join(d, "weed")); err == nil && !st.IsDir() {
			return filepath.Join(d, "weed")
		}
	}
	if p, err := exec.LookPath("weed"); err == nil {
		return p
	}
	return ""
}

// Start starts a server for t; it is stopped and its folder removed when t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	weed := WeedPath()
	if weed == "" {
		why := "no SeaweedFS binary (weed): `make setup` builds it into " + ToolDir() + " (or set STRATA_WEED)"
		if os.Getenv("CI") == "true" {
			t.Fatal(why + "; CI must run the S3 tests")
		}
		t.Skip(why)
	}
	s, err := start(weed)
	if err != nil {
		t.Fatalf("start a throwaway SeaweedFS: %v", err)
	}
	t.Cleanup(s.stop)
	return s
}

func start(weed string) (*Server, error) {
	dir, err := os.MkdirTemp("", "strata-s3-")
	if err != nil {
		return nil, err
	}
	s := &Server{Dir: dir, Region: "us-east-1", KeyID: "STRATA" + strings.ToUpper(randomHex(7)), Secret: randomHex(20)}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(dir)
		}
	}()
	cfg, _ := json.Marshal(map[string]any{"identities": []any{map[string]any{
		"name":        "strata",
		"credentials": []any{map[string]string{"accessKey": s.KeyID, "secretKey": s.Secret}},
		"actions":     []string{"Admin", "Read", "List", "Tagging", "Write"},
	}}})
	if err := os.WriteFile(filepath.Join(dir, "s3.json"), cfg, 0o600); err != nil {
		return nil, err
	}
	for _, d := range []string{"data", "home"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			return nil, err
		}
	}
	// A free port can be taken between asking and listening: try again.
	for attempt := 0; ; attempt++ {
		err = s.serve(weed)
		if err == nil {
			ok = true
			return s, nil
		}
		if attempt == 2 {
			return nil, err
		}
	}
}

// serve starts weed on fresh ports and waits until its S3 gateway answers
// a signed request and a volume server has joined (before that, writes fail).
func (s *Server) serve(weed string) error {
	ports, err := freePorts(8)
	if err != nil {
		return err
	}
	s.Endpoint = net.JoinHostPort("127.0.0.1", strconv.Itoa(ports[6]))
	s.URL = "http://" + s.Endpoint
	s.log = filepath.Join(s.Dir, "weed.log")
	logFile, err := os.OpenFile(s.log, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close()
	p := func(i int) string { return strconv.Itoa(ports[i]) }
	cmd := exec.Command(weed, "server",
		"-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-dir="+filepath.Join(s.Dir, "data"),
		"-master.port="+p(0), "-master.port.grpc="+p(1), "-master.telemetry=false", "-master.volumeSizeLimitMB=64",
		"-volume.port="+p(2), "-volume.port.grpc="+p(3), "-volume.max=0",
		"-filer", "-filer.port="+p(4), "-filer.port.grpc="+p(5),
		"-s3", "-s3.port="+p(6), "-s3.port.grpc="+p(7), "-s3.port.iceberg=0", "-s3.port.lance=0",
		"-s3.config="+filepath.Join(s.Dir, "s3.json"))
	cmd.Dir = filepath.Join(s.Dir, "home")
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + filepath.Join(s.Dir, "home"), "LANG=C"}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// The server dies with the test process, even when that is killed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start weed: %w", err)
	}
	s.cmd, s.done = cmd, make(chan error, 1)
	go func() { s.done <- cmd.Wait() }()
	master := "http://127.0.0.1:" + p(0)
	deadline := time.Now().Add(90 * time.Second)
	for {
		if s.ready(master) {
			return nil
		}
		select {
		case err := <-s.done:
			s.cmd = nil
			log, _ := os.ReadFile(s.log)
			return fmt.Errorf("weed exited (%v) before its S3 gateway answered on %s:\n%s", err, s.Endpoint, tail(log))
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.kill()
			log, _ := os.ReadFile(s.log)
			return fmt.Errorf("weed's S3 gateway did not answer on %s within 90 s:\n%s", s.Endpoint, tail(log))
		}
	}
}

// ready: the master knows a volume server with free slots, and the S3
// gateway lists buckets for the access key.
func (s *Server) ready(master string) bool {
	c := http.Client{Timeout: 2 * time.Second}
	resp, err := c.Get(master + "/dir/status")
	if err != nil {
		return false
	}
	var st struct {
		Topology struct{ Free, Max int }
	}
	err = json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if err != nil || st.Topology.Max == 0 {
		return false
	}
	code, _, err := s.do(context.Background(), http.MethodGet, "/", nil)
	return err == nil && code == http.StatusOK
}

// stop ends the server and removes its folder.
func (s *Server) stop() {
	s.kill()
	os.RemoveAll(s.Dir)
}

func (s *Server) kill() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
	s.cmd = nil
}

// Log is what the server printed so far (for a failing test's message).
func (s *Server) Log() string {
	b, _ := os.ReadFile(s.log)
	return string(b)
}

// DuckDBSecret is the statement that gives a DuckDB database (with httpfs
// loaded) this server's credentials under name: a temporary secret, gone
// with the database.
func (s *Server) DuckDBSecret(name string) string {
	q := func(v string) string { return "'" + strings.ReplaceAll(v, "'", "''") + "'" }
	return fmt.Sprintf("CREATE OR REPLACE TEMPORARY SECRET %s (TYPE s3, KEY_ID %s, SECRET %s, ENDPOINT %s, REGION %s, URL_STYLE 'path', USE_SSL false)",
		name, q(s.KeyID), q(s.Secret), q(s.Endpoint), q(s.Region))
}

func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var out []int
	for len(out) < n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		port := l.Addr().(*net.TCPAddr).Port
		// weed derives nothing from these ports when each is given, but a
		// gRPC port must be a valid port too: all are < 65536 already.
		out = append(out, port)
	}
	return out, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func tail(b []byte) string {
	const max = 4000
	if len(b) > max {
		b = b[len(b)-max:]
	}
	return string(b)
}

var errStatus = errors.New("unexpected status")
