package build

import (
	"context"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

// A run's os.Setenv, os.Chdir and time.Local = … reached the next run on
// the worker (2024-01-02 read the env 2024-01-01 set, Asia/Tokyo and /),
// where go run starts each program as its process was started; the
// interpreter kept time.Local and the folder too (kernel/child restores
// them for both).
func TestProcessStateIsFreshForEachRun(t *testing.T) {
	tc := toolchain(t)
	const src = `package ps

import (
	"fmt"
	"os"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	wd, _ := os.Getwd()
	fmt.Println(os.Getenv("PS_SEEN"), time.Local.String(), wd == "/")
	os.Setenv("PS_SEEN", ctx.Partition.Key)
	time.Local, _ = time.LoadLocation("Asia/Tokyo")
	os.Chdir("/")
	return sdk.NewTable(sdk.Int64("n")), nil
}
`
	file := "blocks/ps/ps.go"
	w, err := Build(context.Background(), Options{Dir: t.TempDir(), Tool: tc}, []Block{{File: file, Source: src}})
	if err != nil || w.Failed[file] != nil {
		t.Fatal(err, w.Failed)
	}
	pools := NewPools(supervisor.Config{}, 1)
	defer pools.Close()
	ex, release := pools.Acquire(w)
	defer release()
	for _, day := range []string{"2024-01-01", "2024-01-02"} {
		req := &protocol.ExecRequest{Filename: file, Source: src, Partition: protocol.PartitionWire{Key: day}, Timeout: 10 * time.Second}
		res, _, err := ex.Exec(context.Background(), req, nil, &collect{})
		if err != nil || res.Error != nil {
			t.Fatalf("%s: %v %+v", day, err, res.Error)
		}
		if res.Stdout != " Local false\n" {
			t.Errorf("%s: stdout %q, want %q", day, res.Stdout, " Local false\n")
		}
	}
}
