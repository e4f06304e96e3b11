package remote

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// ClusterConfig is the coordinator's scale-out setup: where NATS is, who
// may connect, and whether its own kernels take tasks too.
type ClusterConfig struct {
	// URL of an external NATS server (nats://host:4222); empty to embed one.
	URL string
	// Creds is a NATS credentials file and Token a token, for URL.
	Creds, Token string
	// Listen is where an embedded server takes workers (host:port); with
	// URL empty and Listen empty there is no listener (in-process only).
	Listen string
	// ListenTLS, when set, is required of workers on Listen (required off
	// loopback).
	ListenTLS *tls.Config
	// StoreDir is the embedded server's JetStream folder.
	StoreDir string
	// MaxMemory and MaxStore bound the embedded server's JetStream.
	MaxMemory, MaxStore int64
	Settings            Settings
	// Local runs tasks on the coordinator's own kernels too, LocalSlots at
	// once; nil (or --no-local) leaves every task to workers.
	Local      Executor
	LocalSlots int
	// LocalNatives and LocalBinDir let the local kernels run shipped
	// compiled builds (see AgentConfig).
	LocalNatives Natives
	LocalBinDir  string
	// LocalInputs lets the local kernels read upstream files a task names
	// (the coordinator has the warehouse's data folder).
	LocalInputs FileReader
	// LocalSQL runs SQL blocks' tasks the local kernels take.
	LocalSQL SQLRunner
	// LocalLake reads the committed versions a Go block's task names.
	LocalLake LakeReader
	Version   string
	// WorkersFile, when set, is rewritten every heartbeat with the live
	// workers, for `strata workers` (which runs in another process).
	WorkersFile string
}

// Cluster is a running coordinator side: the remote pool the engine runs
// Go blocks on, the embedded server if any, and the local agent.
type Cluster struct {
	Pool *Pool
	ns   *server.Server
	nc   *nats.Conn
	stop context.CancelFunc
	wg   sync.WaitGroup
}

// StartCluster connects (or embeds a server), sets up the pool and starts
// the local agent.
func StartCluster(ctx context.Context, cfg ClusterConfig) (*Cluster, error) {
	c := &Cluster{}
	var err error
	switch {
	case cfg.URL != "":
		opts := ConnectOptions("strata-coordinator")
		if cfg.Creds != "" {
			opts = append(opts, nats.UserCredentials(cfg.Creds))
		}
		if cfg.Token != "" {
			opts = append(opts, nats.Token(cfg.Token))
		}
		if c.nc, err = nats.Connect(cfg.URL, opts...); err != nil {
			return nil, fmt.Errorf("connect to NATS at %s: %w", cfg.URL, err)
		}
	default:
		c.ns, err = StartServer(ServerConfig{Listen: cfg.Listen, Token: cfg.Token, StoreDir: cfg.StoreDir, MaxMemory: cfg.MaxMemory, MaxStore: cfg.MaxStore, TLS: cfg.ListenTLS})
		if err != nil {
			return nil, err
		}
		if c.nc, err = ConnectInProcess(c.ns, cfg.Token, "strata-coordinator"); err != nil {
			c.ns.Shutdown()
			return nil, fmt.Errorf("connect to the embedded NATS server: %w", err)
		}
	}
	if c.Pool, err = NewPool(ctx, c.nc, cfg.Settings); err != nil {
		c.Close()
		return nil, err
	}
	actx, cancel := context.WithCancel(context.Background())
	c.stop = cancel
	if cfg.Local != nil && cfg.LocalSlots > 0 {
		host, _ := os.Hostname()
		a, err := NewAgent(c.nc, cfg.Settings, AgentConfig{Slots: cfg.LocalSlots, ID: "coordinator@" + host, Version: cfg.Version, Local: true,
			Natives: cfg.LocalNatives, BinDir: cfg.LocalBinDir, Inputs: cfg.LocalInputs, SQL: cfg.LocalSQL, Lake: cfg.LocalLake}, cfg.Local)
		if err != nil {
			c.Close()
			return nil, err
		}
		c.wg.Add(1)
		go func() { defer c.wg.Done(); _ = a.Run(actx) }()
	}
	if cfg.WorkersFile != "" {
		c.wg.Add(1)
		go func() { defer c.wg.Done(); c.writeWorkers(actx, cfg.WorkersFile) }()
	}
	return c, nil
}

// ClientURL is where workers reach the embedded server ("" without one).
func (c *Cluster) ClientURL() string {
	if c.ns == nil || c.ns.Addr() == nil {
		return ""
	}
	return c.ns.ClientURL()
}

// WorkersFile is what `strata workers` reads.
type WorkersFile struct {
	Written time.Time   `json:"written"`
	Workers []Heartbeat `json:"workers"`
}

func (c *Cluster) writeWorkers(ctx context.Context, path string) {
	t := time.NewTicker(heartbeatEvery)
	defer t.Stop()
	for {
		b, _ := json.MarshalIndent(WorkersFile{Written: time.Now(), Workers: c.Pool.Workers().All()}, "", "  ")
		tmp := path + ".tmp"
		if os.WriteFile(tmp, b, 0o644) == nil {
			_ = os.Rename(tmp, path)
		}
		select {
		case <-t.C:
		case <-ctx.Done():
			_ = os.Remove(path)
			return
		}
	}
}

// ReadWorkersFile reads what a running coordinator wrote.
func ReadWorkersFile(dir string) (*WorkersFile, error) {
	b, err := os.ReadFile(filepath.Clean(dir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no worker list at %s: the project's coordinator is not running with workers (strata start --workers or --listen-workers)", dir)
	}
	if err != nil {
		return nil, err
	}
	var f WorkersFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("worker list %s: %w", dir, err)
	}
	return &f, nil
}

// Close hands back the local agent's tasks, stops the pool, and shuts the
// embedded server down. The engine must have stopped first.
func (c *Cluster) Close() {
	if c.stop != nil {
		c.stop()
	}
	c.wg.Wait()
	if c.Pool != nil {
		c.Pool.Close()
		if t := c.Pool.Traffic(); t != (Traffic{}) {
			fmt.Fprintf(os.Stderr, "strata: %s\n", t)
		}
		if n := c.Pool.LateResults(); n > 0 {
			fmt.Fprintf(os.Stderr, "strata: %d results from workers arrived for runs already decided and were ignored (tasks that ran twice)\n", n)
		}
	}
	if c.nc != nil {
		_ = c.nc.Drain()
		for i := 0; i < 50 && !c.nc.IsClosed(); i++ {
			time.Sleep(20 * time.Millisecond)
		}
		c.nc.Close()
	}
	if c.ns != nil {
		c.ns.Shutdown()
		c.ns.WaitForShutdown()
	}
}
