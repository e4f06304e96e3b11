package build

import (
	"context"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/protocol"
)

// A panic in a helper file of a compiled block names that file and line,
// as the interpreter does (it named the entry file, at no line).
func TestCompiledPanicInAHelperFile(t *testing.T) {
	tc := toolchain(t)
	const entry = `package orders

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("n"))
	t.Append(double(2))
	return t, nil
}
`
	const helper = `package orders

func double(n int64) int64 {
	if n == 2 {
		panic("no double")
	}
	return 2 * n
}
`
	k := startWorker(t, tc, Block{File: "blocks/orders/orders.go", Source: entry, Others: map[string]string{"blocks/orders/helpers.go": helper}})
	req := &protocol.ExecRequest{Filename: "blocks/orders/orders.go", Source: entry, Timeout: time.Minute,
		Files: []protocol.SourceFile{{Name: "blocks/orders/helpers.go", Source: helper}}}
	res, _ := k.Exec(context.Background(), req, nil, &collect{})
	if res.Error == nil || res.Error.Kind != protocol.ErrPanic || res.Error.File != "blocks/orders/helpers.go" || res.Error.Line != 5 {
		t.Fatalf("want a panic at blocks/orders/helpers.go:5, got %+v", res.Error)
	}
}

// strata exec names a block's files by their base names (p1.go, helper.go):
// a helper's panic was reported at the entry's call (p1.go:6), where the
// interpreter names helper.go:10.
func TestCompiledPanicInAHelperFileWithoutFolder(t *testing.T) {
	tc := toolchain(t)
	const entry = "package p1\n\nimport \"github.com/stratahq/strata/blocks/sdk\"\n\nfunc Load(ctx *sdk.Context) (*sdk.Table, error) {\n\thelper()\n\treturn sdk.NewTable(sdk.Int64(\"n\")), nil\n}\n"
	const helper = "package p1\n\ntype codeError struct{ code int }\n\nfunc (e codeError) Error() string { return \"code\" }\n\nfunc helper() {\n\tpanic(codeError{3})\n}\n"
	k := startWorker(t, tc, Block{File: "p1.go", Source: entry, Others: map[string]string{"helper.go": helper}})
	req := &protocol.ExecRequest{Filename: "p1.go", Source: entry, Timeout: time.Minute,
		Files: []protocol.SourceFile{{Name: "helper.go", Source: helper}}}
	res, _ := k.Exec(context.Background(), req, nil, &collect{})
	if res.Error == nil || res.Error.Kind != protocol.ErrPanic || res.Error.File != "helper.go" || res.Error.Line != 8 {
		t.Fatalf("want a panic at helper.go:8, got %+v", res.Error)
	}
}

// log.Fatal in a helper file ends a compiled worker; the run was reported
// under the entry's name at the helper's line (blocks/p6/p6.go:8, a line
// of helpers.go), where the interpreter names the helper.
func TestCompiledExitInAHelperFile(t *testing.T) {
	tc := toolchain(t)
	const entry = "package p6\n\nimport \"github.com/stratahq/strata/blocks/sdk\"\n\nfunc Load(ctx *sdk.Context) (*sdk.Table, error) {\n\tfatal()\n\treturn sdk.NewTable(sdk.Int64(\"n\")), nil\n}\n"
	const helper = "package p6\n\nimport \"log\"\n\nfunc fatal() {\n\tlog.Fatalf(\"stop %d\", 2)\n}\n"
	for _, dir := range []string{"blocks/p6/", ""} {
		k := startWorker(t, tc, Block{File: dir + "p6.go", Source: entry, Others: map[string]string{dir + "helpers.go": helper}})
		req := &protocol.ExecRequest{Filename: dir + "p6.go", Source: entry, Timeout: time.Minute,
			Files: []protocol.SourceFile{{Name: dir + "helpers.go", Source: helper}}}
		res, _ := k.Exec(context.Background(), req, nil, &collect{})
		if res.Error == nil || res.Error.Kind != protocol.ErrPanic || res.Error.File != dir+"helpers.go" || res.Error.Line != 6 {
			t.Errorf("want os.Exit reported at %shelpers.go:6, got %+v", dir, res.Error)
		}
	}
}
