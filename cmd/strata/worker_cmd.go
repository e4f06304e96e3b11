package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/nats-io/nats.go"

	kbuild "github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/remote"
	"github.com/stratahq/strata/kernel/supervisor"
	"github.com/stratahq/strata/projects/tracing"
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
	eng := fs.String("engine", "auto", "auto: run the compiled build the coordinator ships when it is for this platform (else interpreted); interp: always interpreted")
	builds := fs.String("builds", "", "folder for compiled builds fetched from the coordinator (default: the user cache folder, strata/builds; the temp folder without a HOME)")
	tlsCA := fs.String("tls-ca", "", "certificate or CA (PEM) to trust for the coordinator's TLS listener (its DIR/.strata/worker-tls/cert.pem)")
	tlsPin := fs.String("tls-pin", "", "SHA-256 fingerprint of the coordinator's listener certificate, as strata start prints it")
	artifacts := fs.String("artifacts", "", "the coordinator's --artifacts folder, mounted at the same path here")
	otlp := fs.String("otlp-endpoint", "", "export this worker's spans (one per task, in the coordinator's trace) over OTLP/HTTP to this URL (default: $"+tracing.EndpointEnv+")")
	sendOutputs := fs.Bool("send-outputs", false, "use no DuckLake data folder on this machine: send every output's rows to the coordinator and take every input from it (by default the worker writes its outputs' Parquet into the folder itself, and reads an upstream's file there)")
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
	stopTracing, err := tracing.Setup(context.Background(), tracing.Config{Endpoint: *otlp, Service: "strata-worker", Version: version})
	if err != nil {
		return fmt.Errorf("--otlp-endpoint: %w", err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = stopTracing(ctx) // the last tasks' spans
	}()
	if *eng != "auto" && *eng != "interp" {
		return fmt.Errorf("--engine %q: want auto or interp", *eng)
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
	if *tlsCA != "" || *tlsPin != "" {
		tc, err := remote.ClientTLS(*tlsCA, *tlsPin)
		if err != nil {
			return err
		}
		opts = append(opts, nats.Secure(tc))
	}
	ctx, stop := signalContext()
	defer stop()
	// An unreachable server is waited for, as after a disconnect: workers
	// may well start before their coordinator.
	nc, err := remote.WorkerConnect(*url, os.Stderr, opts...)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", *url, err)
	}
	defer nc.Close()
	kcfg := supervisor.Config{Command: kernelCommand(), MemoryLimit: *memLimit << 20}
	kernels := supervisor.NewPool(kcfg, *slots)
	defer kernels.Close()
	acfg := remote.AgentConfig{Slots: *slots, ID: *name, Version: version}
	if !*sendOutputs {
		// A worker whose data folder turns out not to be mounted sends the
		// tables back, and answers a task naming an upstream's file so (the
		// coordinator then sends the table).
		acfg.Files, acfg.Inputs = lakeFiles{}, lakeFiles{}
		acfg.Lake = lakeFiles{} // a Go block's committed upstream versions, from the lake itself
	}
	acfg.SQL = lakeFiles{} // SQL blocks over outputs of their run, in a sandboxed DuckDB
	if *eng == "auto" {
		if acfg.BinDir = *builds; acfg.BinDir == "" {
			cache, err := os.UserCacheDir()
			if err != nil { // no HOME (a bare container): still a folder of this machine
				cache = os.TempDir()
			}
			acfg.BinDir = filepath.Join(cache, "strata", "builds")
		}
		natives := kbuild.NewPools(kcfg, *slots)
		defer natives.Close()
		acfg.Natives = nativePools{natives}
	}
	a, err := remote.NewAgent(nc, remote.Settings{Pool: *pool, Artifacts: *artifacts}, acfg, kernels)
	if err != nil {
		return err
	}
	how := "interpreted"
	if acfg.Natives != nil {
		how = "compiled builds for " + remote.Platform() + " kept in " + acfg.BinDir + ", else interpreted"
	}
	fmt.Fprintf(os.Stderr, "strata worker %s: %d slots, pulling from %s (pool %s), runs %s\n", a.ID(), *slots, *url, *pool, how)
	err = a.Run(ctx)
	if last := nc.LastError(); err != nil && last != nil {
		err = fmt.Errorf("%w (NATS at %s: %v)", err, *url, last) // a wrong token ends the wait: say why
	}
	_ = nc.Drain()
	fmt.Fprintf(os.Stderr, "strata worker %s: stopped after %d tasks\n", a.ID(), a.Ran())
	return err
}
