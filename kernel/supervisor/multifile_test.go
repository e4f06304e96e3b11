package supervisor

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/protocol"
)

// TestMultiFileBlock: a block's package may have several files; the
// kernel runs them together (a helper and a Check in a second file), and a
// problem in the second file is reported at that file's own line.
func TestMultiFileBlock(t *testing.T) {
	const main = `package orders

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("n"))
	for i := range 3 {
		t.Append(double(int64(i)))
	}
	fmt.Println("rows:", t.Len(), greeting)
	return t, nil
}
`
	const helpers = `package orders

import (
	"errors"

	"github.com/stratahq/strata/blocks/sdk"
)

const greeting = "from helpers.go"

func double(n int64) int64 { return 2 * n }

func Check(ctx *sdk.Context, out *sdk.Table) error {
	if out.Len() != 3 {
		return errors.New("want 3 rows")
	}
	return nil
}
`
	k, err := Start(context.Background(), testConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	req := &protocol.ExecRequest{Filename: "blocks/orders/orders.go", Source: main, Timeout: 5 * time.Second,
		Files: []protocol.SourceFile{{Name: "blocks/orders/helpers.go", Source: helpers}}}
	res, out := k.Exec(context.Background(), req, nil, &collect{})
	if res.Error != nil {
		t.Fatalf("run: %+v", res.Error)
	}
	if res.Stdout != "rows: 3 from helpers.go\n" || out.Len() != 3 || out.Column("n").Int64s()[2] != 4 {
		t.Fatalf("stdout %q, table %v", res.Stdout, out.Column("n").Int64s())
	}

	// The Check in the second file runs.
	req.Files[0].Source = strings.Replace(helpers, "out.Len() != 3", "out.Len() != 4", 1)
	res, _ = k.Exec(context.Background(), req, nil, &collect{})
	if res.Error == nil || res.Error.Kind != protocol.ErrCheck {
		t.Fatalf("want the second file's Check to fail the run, got %+v", res.Error)
	}

	// A type error in the second file names that file and line.
	req.Files[0].Source = strings.Replace(helpers, "return 2 * n", `return "x"`, 1)
	res, _ = k.Exec(context.Background(), req, nil, &collect{})
	if res.Error == nil || res.Error.Kind != protocol.ErrCompile || res.Error.File != "blocks/orders/helpers.go" || res.Error.Line != 11 {
		t.Fatalf("want a compile error at blocks/orders/helpers.go:11, got %+v", res.Error)
	}

	// A panic in the second file names that file and line (it named the
	// block's own file, at the second file's line).
	req.Files[0].Source = strings.Replace(helpers, "return 2 * n", `panic("no double")`, 1)
	res, _ = k.Exec(context.Background(), req, nil, &collect{})
	if res.Error == nil || res.Error.Kind != protocol.ErrPanic || res.Error.File != "blocks/orders/helpers.go" || res.Error.Line != 11 || res.Error.Column != 30 {
		t.Fatalf("want a panic at blocks/orders/helpers.go:11:30, got %+v", res.Error)
	}
}

// os.Stderr of a block is the run's stderr stream (it was the kernel's own
// stderr, which only the supervisor's crash report reads).
func TestBlockStderr(t *testing.T) {
	const src = `package errstream

import (
	"fmt"
	"log"
	"os"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	fmt.Fprintln(os.Stderr, "to os.Stderr")
	os.Stderr.WriteString("WriteString\n")
	log.SetFlags(0)
	log.Println("log line")
	fmt.Println("to stdout")
	return sdk.NewTable(sdk.Int64("n")), nil
}
`
	k, err := Start(context.Background(), testConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	h := &collect{}
	res, _ := k.Exec(context.Background(), &protocol.ExecRequest{Filename: "errstream.go", Source: src, Timeout: 5 * time.Second}, nil, h)
	if res.Error != nil {
		t.Fatalf("run: %+v", res.Error)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if got := h.stderr.String(); got != "to os.Stderr\nWriteString\nlog line\n" || res.Stdout != "to stdout\n" {
		t.Fatalf("stderr %q, stdout %q", got, res.Stdout)
	}
}
