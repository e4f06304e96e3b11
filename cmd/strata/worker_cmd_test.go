package main

import (
	"bytes"
	"context"
	"net"
	"os/exec"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/stratahq/strata/e2e/strataproc"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/remote"
)

// `strata worker` started before its NATS server waits for it (it used to
// exit with "no servers available"), connects when the server comes, and
// takes work: a block published by a coordinator started only then runs
// on it.
func TestWorkerWaitsForNATS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there until the server below starts
	const tok = "worker-waits-token"
	var log bytes.Buffer
	w := exec.Command(bin, "worker", "--nats", "nats://"+addr, "--token", tok, "--name", "w-early", "--slots", "1", "--pool", "late", "--engine", "interp")
	w.Stdout, w.Stderr = &log, &log
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- w.Wait() }()
	t.Cleanup(func() {
		_ = w.Process.Kill()
		<-exited
		t.Logf("worker:\n%s", log.String())
	})
	// Give the worker time to find nothing there (before the fix it had
	// exited by now).
	select {
	case err := <-exited:
		exited <- err
		t.Fatalf("the worker exited before its NATS server started: %v", err)
	case <-time.After(1500 * time.Millisecond):
	}

	ns, err := remote.StartServer(remote.ServerConfig{Listen: addr, Token: tok, StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Shutdown)
	nc, err := nats.Connect(ns.ClientURL(), remote.ConnectOptions("coordinator", nats.Token(tok))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pool, err := remote.NewPool(ctx, nc, remote.Settings{Pool: "late", AckWait: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	day := time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)
	req := &protocol.ExecRequest{Filename: "b.go", Task: "run1/b", Timeout: 20 * time.Second,
		Source:    "package b\n\nimport \"github.com/stratahq/strata/blocks/sdk\"\n\nfunc Transform(ctx *sdk.Context) (*sdk.Table, error) {\n\tout := sdk.NewTable(sdk.String(\"s\"))\n\tout.Append(\"ran\")\n\treturn out, nil\n}\n",
		Partition: protocol.PartitionWire{Key: "2024-03-10", Start: day, End: day.AddDate(0, 0, 1), Interval: "day", Zone: "UTC"}}
	res, out, err := pool.Exec(ctx, req, nil, nil)
	if err != nil {
		t.Fatalf("exec: %v", err)
	}
	if res.Error != nil || res.Worker != "w-early" || out == nil || out.Column("s").Strings()[0] != "ran" {
		t.Fatalf("result %+v on %q, want ran on w-early", res.Error, res.Worker)
	}
}
