package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	kbuild "github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/remote"
	"github.com/stratahq/strata/kernel/supervisor"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/server"
)

// version is reported in worker heartbeats; release builds set it with
// -ldflags "-X main.version=...".
var version = "dev"

// scaleOut holds `strata start`'s worker flags.
type scaleOut struct {
	url     string
	creds   string
	token   string
	listen  string
	noLocal bool
	ackWait time.Duration
	pool    string
	// artifacts is a shared folder for payloads above the message size.
	artifacts string
	replicas  int
	// TLS of the embedded listener.
	tlsMode, tlsCert, tlsKey string
}

func (s *scaleOut) register(fs *flag.FlagSet) {
	fs.StringVar(&s.url, "workers", "", "run Go blocks on workers through this NATS server (nats://host:4222)")
	fs.StringVar(&s.creds, "nats-creds", "", "NATS credentials file for --workers")
	fs.StringVar(&s.token, "nats-token", "", "NATS token: for --workers, or the token workers must give --listen-workers (default: DIR/.strata/worker-token, random on first use)")
	fs.StringVar(&s.listen, "listen-workers", "", "embed a NATS server and take workers on this address (host:port)")
	fs.BoolVar(&s.noLocal, "no-local", false, "with workers: run no Go block on this machine's kernels")
	fs.DurationVar(&s.ackWait, "ack-wait", 30*time.Second, "with workers: a task's lease; a worker silent this long loses it to another")
	fs.StringVar(&s.pool, "pool", "default", "with workers: the pool name (several projects can share one NATS server)")
	fs.IntVar(&s.replicas, "nats-replicas", 1, "with --workers on a NATS cluster: replicas of the task and result streams and the object store (3 survives losing a server)")
	fs.StringVar(&s.tlsMode, "worker-tls", "auto", "TLS on the --listen-workers listener: auto (on unless bound to loopback), on, off (refused off loopback)")
	fs.StringVar(&s.tlsCert, "tls-cert", "", "certificate (PEM) of the --listen-workers listener; default: a self-signed one made on first start in DIR/.strata/worker-tls, its fingerprint printed")
	fs.StringVar(&s.tlsKey, "tls-key", "", "key (PEM) of --tls-cert")
	fs.StringVar(&s.artifacts, "artifacts", "", "with workers: a folder every worker sees at the same path (a shared mount); inputs, outputs and compiled builds above the message size go there instead of the NATS object store")
}

func (s *scaleOut) enabled() bool { return s.url != "" || s.listen != "" }

func (s *scaleOut) check() error {
	switch {
	case s.url != "" && s.listen != "":
		return errors.New("--workers and --listen-workers: give one (an external NATS server, or the embedded one)")
	case s.noLocal && !s.enabled():
		return errors.New("--no-local needs workers: add --workers URL or --listen-workers ADDR")
	case s.replicas != 1 && s.url == "":
		return errors.New("--nats-replicas is for a NATS cluster given with --workers (the embedded server is one node)")
	case s.tlsMode != "auto" && s.tlsMode != "on" && s.tlsMode != "off":
		return fmt.Errorf("--worker-tls %q: want auto, on or off", s.tlsMode)
	case (s.tlsCert == "") != (s.tlsKey == ""):
		return errors.New("--tls-cert and --tls-key go together")
	case s.tlsCert != "" && s.listen == "":
		return errors.New("--tls-cert is for the embedded listener: add --listen-workers HOST:PORT")
	case s.ackWait < time.Second:
		return fmt.Errorf("--ack-wait %s: want at least 1s (workers heartbeat every third of it)", s.ackWait)
	}
	return nil
}

// workerTokenFile is where a generated worker token is kept, owner-only.
func workerTokenFile(dir string) string { return filepath.Join(dir, ".strata", "worker-token") }

// start brings up the coordinator's side of scale-out for a project.
func (s *scaleOut) start(ctx context.Context, dir string, local *supervisor.Pool, compiler *kbuild.Compiler) (*remote.Cluster, error) {
	cfg := remote.ClusterConfig{URL: s.url, Creds: s.creds, Token: s.token, Listen: s.listen,
		StoreDir: filepath.Join(dir, ".strata", "nats"), Version: version,
		Settings:    remote.Settings{Pool: s.pool, AckWait: s.ackWait, Artifacts: s.artifacts, Replicas: s.replicas},
		WorkersFile: filepath.Join(dir, ".strata", "workers.json")}
	if s.listen != "" && cfg.Token == "" {
		// Kept across restarts, so workers reconnect to a restarted
		// coordinator with the token they have.
		tok, err := readToken("", workerTokenFile(dir))
		if err != nil || len(tok) < 16 {
			if tok, err = server.NewToken(); err != nil {
				return nil, err
			}
			if err := os.WriteFile(workerTokenFile(dir), []byte(tok+"\n"), 0o600); err != nil {
				return nil, fmt.Errorf("write worker token: %w", err)
			}
		}
		cfg.Token = tok
	}
	pin, err := s.listenerTLS(dir, &cfg)
	if err != nil {
		return nil, err
	}
	if !s.noLocal {
		cfg.Local, cfg.LocalSlots = local, local.Size()
		// The coordinator's kernels run shipped builds like any worker.
		cfg.LocalNatives, cfg.LocalBinDir = nativePools{compiler.Pools}, filepath.Join(dir, ".strata", "build", "shipped")
		cfg.LocalInputs, cfg.LocalSQL, cfg.LocalLake = lakeFiles{}, lakeFiles{}, lakeFiles{}
	}
	c, err := remote.StartCluster(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if u := c.ClientURL(); u != "" {
		how := "--token-file " + workerTokenFile(dir)
		if s.token != "" {
			how = "--token …"
		}
		if pin != "" {
			how += " --tls-pin " + pin
		}
		fmt.Printf("Workers connect with:\n\n    strata worker --nats %s %s --slots N\n\n", u, how)
	}
	return c, nil
}

// listenerTLS sets the embedded listener's TLS and returns the fingerprint
// workers pin (empty without TLS).
func (s *scaleOut) listenerTLS(dir string, cfg *remote.ClusterConfig) (string, error) {
	if s.listen == "" {
		return "", nil
	}
	host, _, err := net.SplitHostPort(s.listen)
	if err != nil {
		return "", fmt.Errorf("--listen-workers %q: want host:port: %w", s.listen, err)
	}
	if s.tlsMode == "off" || (s.tlsMode == "auto" && s.tlsCert == "" && server.IsLoopback(s.listen)) {
		return "", nil // off loopback, remote.StartServer refuses it
	}
	var fp string
	if s.tlsCert != "" {
		cfg.ListenTLS, fp, err = remote.ServerTLS(s.tlsCert, s.tlsKey)
	} else {
		var created bool
		tdir := filepath.Join(dir, ".strata", "worker-tls")
		cfg.ListenTLS, fp, created, err = remote.SelfSignedTLS(tdir, []string{host})
		if err == nil && created {
			fmt.Printf("Made a self-signed certificate for the worker listener: %s\n", filepath.Join(tdir, "cert.pem"))
		}
	}
	if err != nil {
		return "", err
	}
	fmt.Printf("Worker listener TLS certificate SHA-256 fingerprint: %s\n", fp)
	return fp, nil
}

// readToken returns a token given inline or in a file.
func readToken(token, file string) (string, error) {
	if file == "" {
		return token, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// The engine runs Go blocks on the remote pool exactly as on the local one.
var (
	_ engine.Executor = (*remote.Pool)(nil)
	_ engine.Executor = (*remote.Compiled)(nil)
)

// nativePools starts a worker's kernels from the compiled builds it
// fetched (kernel/build's pools: one per binary, old ones closed).
type nativePools struct{ p *kbuild.Pools }

func (n nativePools) Acquire(path string) (remote.Executor, func()) {
	return n.p.Acquire(&kbuild.Worker{Path: path})
}
