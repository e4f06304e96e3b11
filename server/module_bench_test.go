package server

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/modtest"
)

const uuidSource = `package raw_orders

import (
	"github.com/google/uuid"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.String("id"))
	t.Append(uuid.NewSHA1(uuid.NameSpaceURL, []byte(ctx.Partition.Key)).String())
	return t, nil
}
`

// BenchmarkWSExecuteModule: BenchmarkWSExecuteTrivial for a cell that
// imports a module (github.com/google/uuid), its project kernel built
// during the warm-up. Target p50 <= 5 ms, as for standard-library cells.
func BenchmarkWSExecuteModule(b *testing.B) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		b.Skip(err)
	}
	e := newEnv(b)
	for _, f := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join("../kernel/testdata/modules", f))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(e.dir, f), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	modtest.Download(b, goCmd, e.dir)
	c := e.connect()
	c.hello("bench")
	for i := 0; i < 5; i++ { // builds the project kernel, then warms it
		if m, _ := c.execute("raw_orders", uuidSource, "2024-03-10", 10*time.Minute); m.Type != MsgResult {
			b.Fatal(m.Error)
		}
	}
	lat := make([]time.Duration, 0, 1024)
	for b.Loop() {
		start := time.Now()
		m, _ := c.execute("raw_orders", uuidSource, "2024-03-10", 30*time.Second)
		lat = append(lat, time.Since(start))
		if m.Type != MsgResult || m.Preview == nil {
			b.Fatal(m.Error)
		}
	}
	reportLatency(b, lat)
}
