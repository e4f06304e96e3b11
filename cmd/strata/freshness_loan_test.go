package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestFreshnessRefreshWithEveryKernelHeldByReaders: the kernel pool is at
// the core count (max(2, cores)), a reader backfill runs at that
// concurrency, and every reader calls ctx.Product for a partition of a
// product (computed by a Go block) that must be refreshed first, only once
// all of them hold their kernels. The refresh runs on the kernel a waiting
// reader lends; before, it waited for a kernel the readers held and every
// reader failed "timed out after 20s". Interpreted (STRATA_GO=off): the
// readers and the refresh share the one pool.
func TestFreshnessRefreshWithEveryKernelHeldByReaders(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	n := max(2, runtime.NumCPU()) // the pool's size (workspace.go)
	gates := t.TempDir()
	dir := truthProject(t, bin, `package b

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	out := sdk.NewTable(sdk.String("day"))
	out.Append(ctx.Partition.Key)
	return out, nil
}
`)
	files := map[string]string{
		"pipelines/p.yaml":       "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nblocks:\n  - id: b\n    product: raw_events\n",
		"pipelines/readers.yaml": fmt.Sprintf("partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nconcurrency: %d\ntimeout: 20s\nreads:\n  - product: raw_events\n    freshness: {max_age: 1h}\nblocks:\n  - id: reader\n", n),
		"blocks/reader/reader.go": fmt.Sprintf(`package reader

import (
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// Every reader holds its kernel before any reads: the pool is full of readers.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	if err := os.WriteFile(filepath.Join(%q, "in-"+ctx.Partition.Key), nil, 0o644); err != nil {
		return nil, err
	}
	for i := 0; i < 500; i++ {
		in, _ := filepath.Glob(filepath.Join(%q, "in-*"))
		if len(in) >= %d {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	in, err := ctx.Product("raw_events", sdk.One("2024-01-05"))
	if err != nil {
		return nil, err
	}
	out := sdk.NewTable(sdk.Int64("rows"))
	out.Append(int64(in.Len()))
	return out, nil
}
`, gates, gates, n),
	}
	for p, c := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "backfill", dir, "readers", "--from", "2024-01-10", "--to", fmt.Sprintf("2024-01-%d", 9+n))
	cmd.Env = append(os.Environ(), "STRATA_GO=off")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), fmt.Sprintf("%d succeeded", n)) {
		t.Fatalf("reader backfill at concurrency %d over a pool of %d, every reader waiting for one refresh: %v\n%s", n, n, err, out)
	}
}
