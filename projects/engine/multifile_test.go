package engine

import (
	"context"
	"testing"

	"github.com/stratahq/strata/projects/warehouse"
)

// A Go block is a package: a pipeline run sends the block's other files to
// the kernel with it (a helper in helpers.go, a Check in check.go), and a
// _test.go file is left out.
func TestRunGoBlockOfSeveralFiles(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, map[string]string{
		"pipelines/p.yaml": "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nblocks:\n  - id: m\n",
		"blocks/m/m.go": `package m

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("n"))
	for _, n := range squares(4) {
		t.Append(n)
	}
	return t, nil
}
`,
		"blocks/m/helpers.go": `package m

func squares(k int) []int64 {
	var out []int64
	for i := range k {
		out = append(out, int64(i*i))
	}
	return out
}
`,
		"blocks/m/check.go": `package m

import (
	"errors"

	"github.com/stratahq/strata/blocks/sdk"
)

func Check(ctx *sdk.Context, out *sdk.Table) error {
	if out.Len() != 4 {
		return errors.New("want 4 rows")
	}
	return nil
}
`,
		"blocks/m/m_test.go": "package m\n\nimport \"testing\"\n\nfunc TestNothing(t *testing.T) { undefinedHere() }\n",
	})
	e.mustSucceed(e.run("p", "2024-01-02"))
	got, err := e.wh.Read(context.Background(), "p__m", warehouse.Selection{Partitions: []string{"2024-01-02"}}, -1)
	if err != nil || got.Len() != 4 || got.Column("n").Int64s()[3] != 9 {
		t.Fatalf("product: %v %v", err, got)
	}
	// The Check in check.go runs: a run that breaks it fails.
	writeFiles(t, e.dir, map[string]string{"blocks/m/check.go": `package m

import (
	"errors"

	"github.com/stratahq/strata/blocks/sdk"
)

func Check(ctx *sdk.Context, out *sdk.Table) error { return errors.New("check.go ran") }
`})
	e.reload()
	if res := e.run("p", "2024-01-03"); res.State == StateSucceeded {
		t.Fatalf("a failing Check in check.go should fail the run")
	}
}
