package sources

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/strataproc"
)

// workerSecretValue is the secret the coordinator holds: a connection
// string whose password is masked on its own too.
const workerSecretValue = "postgres://shop:Wk-7f3d9c2e-pw@127.0.0.1:1/shop"

const workerSecretBlock = `package creds

import (
	"fmt"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// Uses the secret the way a source would, and leaks it every way a block
// can: stdout (whole, and in two writes cut inside the password), its log,
// an error-free output row.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	v, err := ctx.Secret("pg")
	if err != nil {
		return nil, err
	}
	fmt.Println("connecting with", v)
	fmt.Print("in pieces ", v[:22])
	time.Sleep(300 * time.Millisecond) // two reads of the kernel's pipe, so two pieces
	fmt.Println(v[22:])
	ctx.Log.Info("dsn " + v)
	t := sdk.NewTable(sdk.String("day"), sdk.Int64("len"), sdk.String("shown"))
	t.Append(ctx.Partition.Key, int64(len(v)), "dsn="+v)
	return t, nil
}
`

// TestSecretReachesAWorkerSealed: a Go block that asks ctx.Secret("pg")
// runs on a real ` + "`strata worker`" + ` (the coordinator runs nothing itself,
// --no-local) whose environment lacks the secret. The block gets the value
// (its length is right), and nothing else does: the worker's link to NATS
// is recorded by a proxy (plain TCP on loopback, so the recording is the
// clear traffic) and holds neither the value nor its password; neither do
// the worker's output, its HOME, cache and temporary folders, the
// coordinator's output, the project's files, or the run's record, where
// what the block printed reads ***.
func TestSecretReachesAWorkerSealed(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary as a coordinator and a worker")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	writeExtProject(t, dir, map[string]string{
		"strata.yaml":           "name: creds\nsecrets:\n  pg: {env: WORKER_TEST_PG}\n",
		"pipelines/creds.yaml":  "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nblocks:\n  - id: creds\n",
		"blocks/creds/creds.go": workerSecretBlock,
	})
	t.Setenv("WORKER_TEST_PG", workerSecretValue) // the coordinator's environment only
	srv := strataproc.Start(t, bin, dir, token, "--listen-workers", "127.0.0.1:0", "--no-local", "--ack-wait", "5s")
	natsURL := regexp.MustCompile(`nats://(127\.0\.0\.1:\d+)`).FindStringSubmatch(strings.Join(srv.Printed, "\n"))
	if natsURL == nil {
		t.Fatalf("strata start --listen-workers did not say where workers connect:\n%s", strings.Join(srv.Printed, "\n"))
	}
	tap := startTap(t, natsURL[1])

	// The worker: its own HOME, cache and temporary folders, and an
	// environment without the secret's variable.
	wdir := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "WORKER_TEST_PG=") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "TMPDIR=") && !strings.HasPrefix(kv, "XDG_CACHE_HOME=") {
			env = append(env, kv)
		}
	}
	for _, sub := range []string{"home", "tmp", "cache"} {
		if err := os.MkdirAll(filepath.Join(wdir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env = append(env, "HOME="+filepath.Join(wdir, "home"), "TMPDIR="+filepath.Join(wdir, "tmp"), "XDG_CACHE_HOME="+filepath.Join(wdir, "cache"))
	worker := exec.Command(bin, "worker", "--nats", "nats://"+tap.addr(), "--token-file", filepath.Join(dir, ".strata", "worker-token"),
		"--slots", "1", "--name", "w1", "--builds", filepath.Join(wdir, "builds"))
	worker.Dir, worker.Env = wdir, env
	wlog := &bytes.Buffer{}
	worker.Stdout, worker.Stderr = wlog, wlog
	if err := worker.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = worker.Process.Kill(); _ = worker.Wait() })

	var launched struct {
		ID string `json:"id"`
	}
	srv.Call(t, http.MethodPost, "/backfills", `{"pipeline":"creds","from":"2024-01-01","to":"2024-01-02","publish":"partition","concurrency":2}`, &launched)
	st := srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.State != "running" })
	if st.State != "succeeded" {
		t.Fatalf("backfill %s %q %+v\nworker:\n%s\nserver:\n%s", st.State, st.Message, st.Progress, wlog, srv.Stderr)
	}
	// The runs as the API shows them: each block run names the worker, and
	// its log shows what the block printed, masked.
	var parts struct {
		Partitions []struct {
			RunID string `json:"run_id"`
		} `json:"partitions"`
	}
	srv.Call(t, http.MethodGet, "/backfills/"+launched.ID+"/partitions?limit=100", "", &parts)
	var outputs []string
	for _, p := range parts.Partitions {
		_, body, err := srv.Request(http.MethodGet, "/runs/"+url.PathEscape(p.RunID), "")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(body), `"worker":"w1`) {
			t.Errorf("run %s did not run on the worker: %s", p.RunID, body)
		}
		// The value printed in pieces: held until whole, so a log line may
		// come between "in pieces " and its ***; the leak checks below say
		// neither piece is anywhere.
		if !strings.Contains(string(body), `in pieces `) || strings.Count(string(body), "***") < 3 {
			t.Errorf("run %s: the log does not show the value printed in pieces, masked: %s", p.RunID, body)
		}
		outputs = append(outputs, string(body))
	}
	_ = worker.Process.Signal(syscall.SIGTERM)
	_ = worker.Wait()
	srv.Stop(t)

	js, code := strataCmd(t, bin, nil, "preview", dir, "creds", "creds", "--partition", "2024-01-02", "--format", "json")
	if code != 0 {
		t.Fatalf("preview: %s", js)
	}
	var got struct {
		Preview struct {
			Rows [][]any `json:"rows"`
		} `json:"preview"`
	}
	if err := json.Unmarshal([]byte(js), &got); err != nil || len(got.Preview.Rows) != 1 {
		t.Fatalf("preview: %v\n%s", err, js)
	}
	if row := fmt.Sprint(got.Preview.Rows[0][1:]); row != fmt.Sprintf("[2024-01-02 %d dsn=***]", len(workerSecretValue)) {
		t.Fatalf("row %s: want the value's length (the block got it) and dsn=*** (masked)", row)
	}
	wire := tap.bytes()
	if !bytes.Contains(wire, []byte(`ctx.Secret(\"pg\")`)) && !bytes.Contains(wire, []byte(`ctx.Secret("pg")`)) {
		t.Fatalf("the recorded link (%d bytes) does not hold the block's source: not the clear traffic", len(wire))
	}
	// The value, its password, and what either side of the cut in the
	// printed pieces holds: masked one piece at a time, each crossed NATS.
	secrets := []string{workerSecretValue, "Wk-7f3d9c2e-pw", workerSecretValue[:22], workerSecretValue[22:]}
	for _, s := range secrets {
		if bytes.Contains(wire, []byte(s)) {
			i := bytes.Index(wire, []byte(s))
			t.Errorf("the worker's NATS traffic holds %q: …%q…", s, wire[max(0, i-200):min(len(wire), i+60)])
		}
	}
	outputs = append(outputs, wlog.String(), srv.Stderr.String(), js)
	assertNoSecrets(t, dir, outputs, secrets)
	assertNoSecrets(t, wdir, nil, secrets)
	t.Logf("worker:\n%s", wlog)
}

// tap is a TCP proxy that records every byte both ways.
type tapProxy struct {
	ln  net.Listener
	mu  sync.Mutex
	rec bytes.Buffer
}

func startTap(t *testing.T, target string) *tapProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tapProxy{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.DialTimeout("tcp", target, 5*time.Second)
			if err != nil {
				c.Close()
				continue
			}
			go p.pipe(s, c)
			go p.pipe(c, s)
		}
	}()
	return p
}

func (p *tapProxy) addr() string { return p.ln.Addr().String() }

func (p *tapProxy) pipe(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	_, _ = io.Copy(dst, io.TeeReader(src, writerFunc(func(b []byte) (int, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.rec.Write(b)
	})))
}

func (p *tapProxy) bytes() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]byte(nil), p.rec.Bytes()...)
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }
