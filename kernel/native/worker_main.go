package native

import (
	"flag"
	"fmt"
	"os"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/child"
)

// Block is one compiled block as the generated main registers it.
type Block struct {
	// File is the block's entry file as the coordinator names it in
	// ExecRequest.Filename (the project-relative path).
	File string
	// Hash is SourceHash of the package's files it was built from: a
	// request with other source is refused rather than run with stale code.
	Hash  string
	Entry string // Load, Transform or Export
	// Tables is the number of *sdk.Table parameters of the entry.
	Tables int
	// Run calls the entry; for Export it returns a nil table.
	Run   func(ctx *sdk.Context, in []*sdk.Table) (*sdk.Table, error)
	Check func(ctx *sdk.Context, out *sdk.Table) error // nil when the block has none
	// Restricted are the restricted imports (os/exec, unsafe, syscall,
	// plugin) the block uses, with the message a run without the opt-in
	// gets: the worker refuses such a run even though the code is built in.
	Restricted map[string]string
	// Reset sets the block package's variables again and runs its init
	// functions (kernel/build/package_reset.go): called before each run,
	// so that each starts as a fresh process would. Nil: no state.
	Reset func()
	// Fresh: the package has state Reset could not be made for; the worker
	// restarts after each run of the block instead.
	Fresh bool
}

// Main serves the registered blocks on stdio until the coordinator closes
// the stream. It takes the same flags as `strata kernel`.
func Main(blocks ...Block) {
	fs := flag.NewFlagSet("worker", flag.ExitOnError)
	mem := fs.Int64("memory-limit", 0, "memory limit in bytes")
	_ = fs.Parse(os.Args[1:])
	os.Args = os.Args[:1] // blocks see no arguments, as a program run without any
	ex, err := NewExecutor(blocks)
	if err == nil {
		err = child.Main(ex, child.Options{MemoryLimit: *mem})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "strata worker:", err)
		os.Exit(1)
	}
}
