package interp

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stratahq/strata/kernel/protocol"
)

const initOrderMain = `package zeta

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

var a = p("a")

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	fmt.Println(order)
	return sdk.NewTable(sdk.Int64("n")), nil
}
`

// A package's files initialize in name order (go build sorts them, and
// yaegi reads the block's folder sorted), while the kernel type-checks the
// block's own file first. In alpha.go, b's initializer reads a through f:
// Go runs a first, yaegi ran b first and printed [b saw  a] where Go
// prints [a b saw a]. Go's order now comes from the files in name order,
// and the refusal names the file the variable is in.
func TestInitOrderAcrossFiles(t *testing.T) {
	e := NewExecutor()
	run := func(helper string) (string, *protocol.RunError) {
		var out bytes.Buffer
		env := &protocol.Env{Stdout: &out, Stderr: io.Discard, Log: func(string, string) {}}
		req := &protocol.ExecRequest{Filename: "blocks/zeta/zeta.go", Source: initOrderMain,
			Files: []protocol.SourceFile{{Name: "blocks/zeta/alpha.go", Source: helper}}}
		_, res := e.Exec(context.Background(), req, nil, env)
		return out.String(), res.Error
	}
	_, rerr := run("package zeta\n\nvar order []string\n\nvar b = f()\n\nfunc f() string { return p(\"b saw \" + a) }\n\nfunc p(s string) string { order = append(order, s); return s }\n")
	if rerr == nil || rerr.Kind != protocol.ErrUnsupported || rerr.File != "blocks/zeta/alpha.go" || rerr.Line != 5 || !strings.Contains(rerr.Message, "package variable b would initialize before a") {
		t.Fatalf("want a refusal at blocks/zeta/alpha.go:5, got %+v", rerr)
	}
	out, rerr := run("package zeta\n\nvar order []string\n\nvar b = p(\"b\")\n\nfunc p(s string) string { order = append(order, s); return s }\n")
	if rerr != nil || out != "[b a]\n" {
		t.Fatalf("independent initializers: stdout %q, error %+v; want [b a] (alpha.go first)", out, rerr)
	}
}

// A package variable without a value is zeroed by yaegi where it is
// declared, also after another file's initializers stored into it: alpha.go
// appends to zeta.go's order while the package initializes, and yaegi
// printed []. Moving the declaration within zeta.go cannot help (alpha.go
// is read first): the block is refused at the declaration.
func TestZeroVarAfterAnotherFilesInitializer(t *testing.T) {
	const main = `package zeta

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

var order []string

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	fmt.Println(order)
	return sdk.NewTable(sdk.Int64("n")), nil
}
`
	e := NewExecutor()
	var out bytes.Buffer
	env := &protocol.Env{Stdout: &out, Stderr: io.Discard, Log: func(string, string) {}}
	req := &protocol.ExecRequest{Filename: "blocks/zeta/zeta.go", Source: main,
		Files: []protocol.SourceFile{{Name: "blocks/zeta/alpha.go", Source: "package zeta\n\nvar b = p(\"b\")\n\nfunc p(s string) string { order = append(order, s); return s }\n"}}}
	_, res := e.Exec(context.Background(), req, nil, env)
	if res.Error == nil || res.Error.Kind != protocol.ErrUnsupported || res.Error.File != "blocks/zeta/zeta.go" || res.Error.Line != 9 || !strings.Contains(res.Error.Message, "package variable order, declared without a value") {
		t.Fatalf("want a refusal at blocks/zeta/zeta.go:9, got %+v (stdout %q)", res.Error, out.String())
	}
}

// Another file's initializer that calls only other packages' functions
// cannot store into the block's variables: the zero variable runs
// interpreted.
func TestZeroVarAfterNativeInitializer(t *testing.T) {
	const main = `package zeta

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

var cache map[string]int

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	fmt.Println(len(cache), re.MatchString("a1"))
	return sdk.NewTable(sdk.Int64("n")), nil
}
`
	e := NewExecutor()
	var out bytes.Buffer
	env := &protocol.Env{Stdout: &out, Stderr: io.Discard, Log: func(string, string) {}}
	req := &protocol.ExecRequest{Filename: "blocks/zeta/zeta.go", Source: main,
		Files: []protocol.SourceFile{{Name: "blocks/zeta/alpha.go", Source: "package zeta\n\nimport \"regexp\"\n\nvar re = regexp.MustCompile(`[a-z][0-9]`)\n"}}}
	_, res := e.Exec(context.Background(), req, nil, env)
	if res.Error != nil || out.String() != "0 true\n" {
		t.Fatalf("stdout %q, error %+v; want 0 true", out.String(), res.Error)
	}
}
