package build

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

const resetA = `package st

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

var total = base * 2 // base is declared in b.go, and set first

var calls int

var seen = map[string]bool{}

func init() {
	fmt.Println("init a", total)
	calls += 10
}

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	calls++
	seen[ctx.Partition.Key] = true
	fmt.Println("calls", calls, "seen", len(seen), "total", total, "pair", pa, pb)
	total++
	pb++
	return sdk.NewTable(sdk.Int64("x")), nil
}
`

const resetB = `package st

import "fmt"

var base = compute()

// pb needs pa of its own declaration: the rewrite cannot order that one
// declaration, so the worker restarts after each run instead.
var pa, pb = 1, pa + 1

func compute() int {
	fmt.Println("compute")
	return 21
}

func init() { fmt.Println("init b") }
`

// Each run of a compiled block starts with its package as a fresh process
// has it: variables set again in Go's order (across files), init functions
// run in file order, their output in the run's stdout. A backfill's
// partitions used to share what earlier runs on the worker left: a counter
// and a map gave 2, 3, 1, 1, 2, 4 where go run and the interpreter give 1.
func TestPackageStateIsFreshForEachRun(t *testing.T) {
	tc := toolchain(t)
	for _, tc2 := range []struct {
		name, b, startup string
	}{
		{"reset", strings.Replace(resetB, "var pa, pb = 1, pa + 1", "var pa, pb = 1, 2", 1), "compute\ninit a 42\ninit b\n"},
		// Restarted instead: Go sets the variables as the worker starts, so
		// what their initializers print is not the run's (compute), but
		// init runs with the run and prints into it, as interpreted.
		{"restart", resetB, "init a 42\ninit b\n"},
	} {
		t.Run(tc2.name, func(t *testing.T) {
			file := "blocks/st/a.go"
			blocks := []Block{{File: file, Source: resetA, Others: map[string]string{"blocks/st/b.go": tc2.b}}}
			w, err := Build(context.Background(), Options{Dir: t.TempDir(), Tool: tc}, blocks)
			if err != nil || w.Failed[file] != nil {
				t.Fatal(err, w.Failed)
			}
			pools := NewPools(supervisor.Config{}, 1)
			defer pools.Close()
			ex, release := pools.Acquire(w)
			defer release()
			want := tc2.startup + "calls 11 seen 1 total 42 pair 1 2\n"
			for i, day := range []string{"2024-01-01", "2024-01-02", "2024-01-03"} {
				req := &protocol.ExecRequest{Filename: file, Source: resetA, Files: []protocol.SourceFile{{Name: "blocks/st/b.go", Source: tc2.b}},
					Partition: protocol.PartitionWire{Key: day}, Timeout: 10 * time.Second}
				res, _, err := ex.Exec(context.Background(), req, nil, &collect{})
				if err != nil || res.Error != nil {
					t.Fatalf("run %d: %v %v", i+1, err, res.Error)
				}
				if res.Stdout != want {
					t.Errorf("run %d: stdout %q, want %q (as go run prints it)", i+1, res.Stdout, want)
				}
			}
		})
	}
}

// The rewrite orders the variables from the text alone, where Go orders
// them by what each initializer refers to, which takes types to tell. A
// method named like another type's method that reads a later variable, or
// a struct field named like a variable, made the rewrite set cfg before a
// ([cfg a:u] where go run gives [a:u cfg]): now a block whose order rests
// on such a name restarts instead (corpus adv6_init_order_names).
func TestResetOrderNeedsNoTypes(t *testing.T) {
	t.Parallel()
	const head = "package p\n\nvar trace []string\n\nfunc note(s string) string { trace = append(trace, s); return s }\n\n"
	for _, c := range []struct {
		name, src string
		fresh     bool
	}{
		{"method of another type", head + "type T struct{}\n\nfunc (T) Name() string { return cfg }\n\ntype U struct{}\n\nfunc (U) Name() string { return \"u\" }\n\nvar a = note(U{}.Name())\nvar cfg = note(\"cfg\")\n", true},
		{"field named like a variable", head + "type P struct{ b int }\n\nvar a = note(string(rune(P{b: 1}.b)))\nvar b = note(\"b\")\n", true},
		{"map key that is a variable", head + "var k = note(\"k\")\nvar m = map[string]int{k: 1}\n", false},
		{"method that reads an earlier variable", head + "type T struct{}\n\nfunc (T) Name() string { return cfg }\n\nvar cfg = note(\"cfg\")\nvar a = note(T{}.Name())\n", false},
		{"a later variable through a function", head + "func get() string { return cfg }\n\nvar a = note(get())\nvar cfg = note(\"cfg\")\n", false},
	} {
		r := rewriteForReset("p", map[string]string{"p.go": c.src})
		if r.fresh != c.fresh {
			t.Errorf("%s: fresh %t, want %t", c.name, r.fresh, c.fresh)
		}
	}
}

// Setting a package's variables again re-ran expvar.NewInt("hits"), which
// panics for a name already registered: the block failed on every run,
// the first too, where go run succeeds. A block that registers a name
// process-wide now runs in a fresh worker each time.
func TestRegisteringBlockRunsEachTime(t *testing.T) {
	tc := toolchain(t)
	const src = `package reg

import (
	"expvar"
	"fmt"
	"net/http"

	"github.com/stratahq/strata/blocks/sdk"
)

var hits = expvar.NewInt("hits")

func init() { http.HandleFunc("/health", func(http.ResponseWriter, *http.Request) {}) }

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	hits.Add(1)
	fmt.Println("hits", hits.Value())
	return sdk.NewTable(sdk.Int64("n")), nil
}
`
	file := "blocks/reg/reg.go"
	w, err := Build(context.Background(), Options{Dir: t.TempDir(), Tool: tc}, []Block{{File: file, Source: src}})
	if err != nil || w.Failed[file] != nil {
		t.Fatal(err, w.Failed)
	}
	pools := NewPools(supervisor.Config{}, 1)
	defer pools.Close()
	ex, release := pools.Acquire(w)
	defer release()
	for run := 1; run <= 3; run++ {
		res, _, err := ex.Exec(context.Background(), &protocol.ExecRequest{Filename: file, Source: src, Timeout: 10 * time.Second}, nil, &collect{})
		if err != nil || res.Error != nil {
			t.Fatalf("run %d: %v %+v", run, err, res.Error)
		}
		if res.Stdout != "hits 1\n" {
			t.Errorf("run %d: stdout %q, want %q", run, res.Stdout, "hits 1\n")
		}
	}
}
