package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestBackfillBlocksFlag: `strata backfill --blocks a` recomputes only a,
// says what the subset means, and a typo in a block id is refused naming
// the pipeline's blocks.
func TestBackfillBlocksFlag(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := truthProject(t, bin, `package b

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.String("day"))
	t.Append(ctx.Partition.Key)
	return t, nil
}
`)
	yaml := "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nconcurrency: 1\nblocks:\n  - id: b\n  - id: c\n    upstream: [b]\n"
	if err := os.WriteFile(filepath.Join(dir, "pipelines/p.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "blocks/c.sql"), []byte("SELECT day FROM b"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := strataproc.Run(t, bin, "backfill", dir, "p", "--from", "2024-01-01", "--to", "2024-01-02"); code != 0 {
		t.Fatalf("full backfill (exit %d):\n%s", code, out)
	}
	out, code := strataproc.Run(t, bin, "backfill", dir, "p", "--from", "2024-01-01", "--to", "2024-01-02", "--blocks", "b", "--reprocess", "all")
	if code != 0 || !strings.Contains(out, "blocks b only") || !strings.Contains(out, "become stale") {
		t.Fatalf("--blocks b (exit %d) does not say what it runs:\n%s", code, out)
	}
	out, code = strataproc.Run(t, bin, "backfill", dir, "p", "--from", "2024-01-01", "--to", "2024-01-02", "--reprocess", "stale", "--dry-run")
	if code != 0 || !strings.Contains(out, "2 stale") {
		t.Fatalf("after --blocks b, c should be stale on both days (exit %d):\n%s", code, out)
	}
	out, code = strataproc.Run(t, bin, "backfill", dir, "p", "--from", "2024-01-01", "--to", "2024-01-02", "--blocks", "b,cc")
	if code == 0 || !strings.Contains(out, `no block "cc" (its blocks: b, c)`) {
		t.Fatalf("--blocks b,cc (exit %d) not refused by name:\n%s", code, out)
	}
}
