package remote

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/kerneltest"
	"github.com/stratahq/strata/kernel/supervisor"
)

// A coordinator on an external NATS server (token auth) with its own
// kernels as a worker: a block runs on them, and the worker list file
// names them; Close removes the file and hands the slots back.
func TestClusterOnExternalServerWithLocalKernels(t *testing.T) {
	ns := natsServer(t)
	local := supervisor.NewPool(kerneltest.Config(), 1)
	defer local.Close()
	file := filepath.Join(t.TempDir(), "workers.json")
	c, err := StartCluster(context.Background(), ClusterConfig{URL: ns.ClientURL(), Token: testToken, Settings: testSettings(),
		Local: local, LocalSlots: 1, Version: "test", WorkersFile: file})
	if err != nil {
		t.Fatal(err)
	}
	res, out, err := c.Pool.Exec(context.Background(), block(`func Load(ctx *sdk.Context) (*sdk.Table, error) { t := sdk.NewTable(sdk.Int64("x")); t.Append(int64(3)); return t, nil }`), nil, &recorder{})
	if err != nil || res.Error != nil || out.Column("x").Int64s()[0] != 3 {
		t.Fatalf("exec: %v %+v", err, res)
	}
	if !strings.HasPrefix(res.Worker, "coordinator@") {
		t.Fatalf("ran on %q, want the coordinator's kernels", res.Worker)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		f, err := ReadWorkersFile(file)
		if err == nil && len(f.Workers) == 1 && f.Workers[0].Local && f.Workers[0].Slots == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("workers file: %+v %v", f, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	c.Close()
	if _, err := ReadWorkersFile(file); err == nil || !strings.Contains(err.Error(), "not running with workers") {
		t.Fatalf("after Close: %v", err)
	}
}

// Without the token the coordinator cannot connect either.
func TestClusterRefusedWithoutToken(t *testing.T) {
	ns := natsServer(t)
	_, err := StartCluster(context.Background(), ClusterConfig{URL: ns.ClientURL(), Settings: testSettings()})
	if err == nil || !strings.Contains(strings.ToLower(err.Error()), "authorization") {
		t.Fatalf("StartCluster without a token: %v", err)
	}
}
