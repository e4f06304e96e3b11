package interp

import (
	"context"
	"go/ast"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
)

// newBlockContext builds the sdk.Context a block receives: the partition in
// its own zone (so Start and End print as the pipeline's local midnight).
func newBlockContext(ctx context.Context, req *protocol.ExecRequest, env *protocol.Env) (*sdk.Context, error) {
	part, err := protocol.BlockPartition(req.Partition)
	if err != nil {
		return nil, err
	}
	return sdk.NewContext(ctx, protocol.BlockConfig(part, req, env)), nil
}

func funcSpans(a *analysis) []funcSpan {
	var out []funcSpan
	ast.Inspect(a.file, func(n ast.Node) bool {
		switch f := n.(type) {
		case *ast.FuncDecl:
			out = append(out, funcSpan{name: f.Name.Name, start: a.fset.Position(f.Pos()).Line, end: a.fset.Position(f.End()).Line})
		case *ast.FuncLit:
			out = append(out, funcSpan{name: "a function literal", start: a.fset.Position(f.Pos()).Line, end: a.fset.Position(f.End()).Line})
		}
		return true
	})
	return out
}
