package remote

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/modtest"
	"github.com/stratahq/strata/kernel/projectkernel"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

const moduleBlock = `package b

import (
	"fmt"

	"github.com/google/uuid"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	fmt.Println(uuid.NewSHA1(uuid.NameSpaceURL, []byte("https://example.com/orders")))
	return sdk.NewTable(), nil
}
`

// An interpreted run whose block imports a module, on a worker: the
// coordinator ships the project kernel as it ships compiled builds, the
// worker runs the block in it (the module's compiled code, the block
// interpreted), and the result says interp, not compiled.
func TestProjectKernelShippedToWorker(t *testing.T) {
	tc, err := build.FindToolchain()
	if err != nil {
		t.Skip(err)
	}
	dir := modtest.Project(t, "../testdata/modules")
	k, err := projectkernel.Build(context.Background(), projectkernel.Options{Dir: filepath.Join(dir, ".strata", "kernel"), Project: dir, Tool: tc}, projectkernel.Imports(moduleBlock))
	if err != nil {
		t.Fatal(err)
	}
	ns := natsServer(t)
	s := testSettings()
	s.Pool = "modules"
	p, err := NewPool(context.Background(), connect(t, ns, "coordinator"), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	natives := &countingNatives{pools: build.NewPools(supervisor.Config{}, 1)}
	t.Cleanup(natives.pools.Close)
	runAgent(t, ns, s, AgentConfig{Slots: 1, ID: "w1", Natives: natives, BinDir: t.TempDir()})
	c, err := p.Compiled(context.Background(), ProjectKernelPrefix+k.Hash[:40], k.Path)
	if err != nil {
		t.Fatal(err)
	}
	h := &recorder{}
	res, _, err := c.Exec(context.Background(), &protocol.ExecRequest{Filename: "blocks/b/b.go", Source: moduleBlock}, nil, h)
	if err != nil || res.Error != nil {
		t.Fatalf("exec: %v %+v", err, res.Error)
	}
	if got := strings.TrimSpace(res.Stdout); len(got) != 36 || got[14] != '5' {
		t.Fatalf("stdout %q, want the version 5 UUID the module makes", got)
	}
	if res.Worker != "w1" || res.Engine != EngineInterp || natives.acquired.Load() != 1 {
		t.Fatalf("worker %q engine %q, %d binaries started: want the shipped project kernel on w1, interpreting", res.Worker, res.Engine, natives.acquired.Load())
	}
}
