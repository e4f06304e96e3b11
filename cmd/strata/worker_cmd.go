package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"

	"github.com/nats-io/nats.go"

	"github.com/stratahq/strata/kernel/remote"
	"github.com/stratahq/strata/kernel/supervisor"
)

func init() {
	register("worker", "run Go blocks for a coordinator: pull tasks from its NATS server, run them in local kernels", runWorker)
}

func runWorker(args []string) error {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	url := fs.String("nats", "", "the coordinator's NATS server (nats://host:4222)")
	slots := fs.Int("slots", runtime.NumCPU(), "block runs at once (one kernel each)")
	token := fs.String("token", "", "NATS token")
	tokenFile := fs.String("token-file", "", "file holding the NATS token (keeps it out of the process list)")
	creds := fs.String("creds", "", "NATS credentials file")
	pool := fs.String("pool", "default", "the coordinator's pool name")
	memLimit := fs.Int64("memory-limit", supervisor.DefaultMemoryLimit>>20, "per-kernel memory limit in MiB")
	name := fs.String("name", "", "worker id shown by `strata workers` (default host/pid/random)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: strata worker --nats URL [--token T | --token-file F | --creds F] [--slots N]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *url == "" {
		fs.Usage()
		return exitError{2}
	}
	tok, err := readToken(*token, *tokenFile)
	if err != nil {
		return err
	}
	if tok == "" && *creds == "" {
		return errors.New("a worker authenticates: give --token, --token-file or --creds (the coordinator's DIR/.strata/worker-token for --listen-workers)")
	}
	opts := remote.ConnectOptions("strata-worker")
	if tok != "" {
		opts = append(opts, nats.Token(tok))
	}
	if *creds != "" {
		opts = append(opts, nats.UserCredentials(*creds))
	}
	ctx, stop := signalContext()
	defer stop()
	nc, err := nats.Connect(*url, opts...)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", *url, err)
	}
	defer nc.Close()
	kernels := supervisor.NewPool(supervisor.Config{Command: kernelCommand(), MemoryLimit: *memLimit << 20}, *slots)
	defer kernels.Close()
	a, err := remote.NewAgent(nc, remote.Settings{Pool: *pool}, remote.AgentConfig{Slots: *slots, ID: *name, Version: version}, kernels)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "strata worker %s: %d slots, pulling from %s (pool %s)\n", a.ID(), *slots, *url, *pool)
	err = a.Run(ctx)
	_ = nc.Drain()
	fmt.Fprintf(os.Stderr, "strata worker %s: stopped after %d tasks\n", a.ID(), a.Ran())
	return err
}
