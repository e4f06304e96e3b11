package build

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/protocol"
)

// A worker refuses a run whose block package differs from the one it was
// built from in any file, not only the entry file: it compared the entry
// file alone, so a run sent with an edited helper file ran the helper the
// binary holds and answered the old code's result as the new code's.
func TestWorkerRefusesAnEditedHelperFile(t *testing.T) {
	tc := toolchain(t)
	entry := `package calc

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("x"))
	t.Append(factor())
	return t, nil
}
`
	helper := "package calc\n\nfunc factor() int64 { return 1 }\n"
	file, helperFile := "blocks/calc/calc.go", "blocks/calc/factor.go"
	k := startWorker(t, tc, Block{File: file, Source: entry, Others: map[string]string{helperFile: helper}})
	req := &protocol.ExecRequest{Filename: file, Source: entry, Files: []protocol.SourceFile{{Name: helperFile, Source: helper}}, Timeout: 10 * time.Second}
	res, out := k.Exec(context.Background(), req, nil, &collect{})
	if res.Error != nil || out.Len() != 1 {
		t.Fatalf("the built package: %v", res.Error)
	}
	for name, files := range map[string][]protocol.SourceFile{
		"edited":  {{Name: helperFile, Source: strings.Replace(helper, "1", "2", 1)}},
		"missing": nil,
		"added":   {{Name: helperFile, Source: helper}, {Name: "blocks/calc/more.go", Source: "package calc\n"}},
	} {
		req.Files = files
		res, _ := k.Exec(context.Background(), req, nil, &collect{})
		if res.Error == nil || !strings.Contains(res.Error.Message, "another version") {
			t.Errorf("helper %s: %+v, want a refusal naming another version", name, res.Error)
		}
	}
}
