package remote

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

// How a worker ran a block, in its result.
const (
	EngineInterp   = "interp"
	EngineCompiled = "compiled"
	EngineSQL      = "sql" // a SQL block, in the worker's DuckDB
)

// ProjectKernelPrefix starts the hash of a shipped project kernel (kernel/
// projectkernel): shipped and run as a compiled build is, it interprets
// the block, so a run on it is interp.
const ProjectKernelPrefix = "kernel-"

// Platform is this process's GOOS/GOARCH: a shipped compiled build runs
// only on workers of the coordinator's platform.
func Platform() string { return runtime.GOOS + "/" + runtime.GOARCH }

// Compiled runs the pool's tasks on one compiled worker binary (kernel/build
// output, static and pure Go). The coordinator builds once per content hash
// and puts the binary in the pool's object store (or artifacts folder);
// each worker of the same platform fetches it once, keeps it by hash and
// starts its kernels from it. A worker that cannot (another platform,
// started with --engine interp, the fetch failed) runs the block's source
// interpreted, and its result says so.
type Compiled struct {
	p   *Pool
	ref BuildRef
}

// Compiled ships the worker binary at path, whose kernel/build content hash
// is hash, and returns the executor whose tasks name it.
func (p *Pool) Compiled(ctx context.Context, hash, path string) (*Compiled, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read compiled worker %s: %w", path, err)
	}
	sum := sha256.Sum256(b)
	ref := BuildRef{Hash: hash, Platform: Platform(), Object: "bin/" + hash, Size: int64(len(b)), SHA256: hex.EncodeToString(sum[:])}
	if err := p.pay.putShared(ctx, ref, b); err != nil {
		return nil, err
	}
	return &Compiled{p: p, ref: ref}, nil
}

// Ref is what the tasks carry.
func (c *Compiled) Ref() BuildRef { return c.ref }

// Exec runs one block on a worker, compiled where it can be.
func (c *Compiled) Exec(ctx context.Context, req *protocol.ExecRequest, inputs []*sdk.Table, h supervisor.Handler) (*protocol.Result, *sdk.Table, error) {
	ref := c.ref
	return c.p.exec(ctx, req, inputs, h, &ref)
}

// Size is the pool's.
func (c *Compiled) Size() int { return c.p.Size() }

// putShared stores a build where workers find it, once per hash.
func (p *payloads) putShared(ctx context.Context, ref BuildRef, b []byte) error {
	if p.dir != "" {
		f := p.fileOf(ref.Object)
		if st, err := os.Stat(f); err == nil && st.Size() == ref.Size {
			return nil // named by content hash: already there
		}
		if err := writeFileAtomic(f, b, 0o644); err != nil {
			return fmt.Errorf("put compiled worker %s in the artifacts folder: %w", ref.Hash[:12], err)
		}
		return nil
	}
	return retry(ctx, p.timeout+time.Duration(len(b)>>20)*250*time.Millisecond, "put compiled worker "+ref.Hash[:12]+" in the object store", func(ctx context.Context) error {
		if info, err := p.obs.GetInfo(ctx, ref.Object); err == nil && info.Metadata["sha256"] == ref.SHA256 {
			return nil
		}
		_, err := p.obs.Put(ctx, jetstream.ObjectMeta{Name: ref.Object, Metadata: map[string]string{"sha256": ref.SHA256}}, bytes.NewReader(b))
		return err
	})
}

// getShared fetches a build and checks it is the one the task names.
func (p *payloads) getShared(ctx context.Context, ref BuildRef) ([]byte, error) {
	var b []byte
	var err error
	if p.dir != "" {
		b, err = os.ReadFile(p.fileOf(ref.Object))
	} else {
		cctx, cancel := context.WithTimeout(ctx, p.timeout+time.Duration(ref.Size>>20)*250*time.Millisecond)
		b, err = p.obs.GetBytes(cctx, ref.Object)
		cancel()
	}
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	if int64(len(b)) != ref.Size || hex.EncodeToString(sum[:]) != ref.SHA256 {
		return nil, fmt.Errorf("got %d bytes with digest %x, want %d bytes with digest %s", len(b), sum, ref.Size, ref.SHA256)
	}
	return b, nil
}

// Natives starts kernels from compiled worker binaries on a worker's
// machine (kernel/build's pools, adapted by the strata binary).
type Natives interface {
	// Acquire returns an executor whose kernels run the binary at path;
	// release it when the task is done.
	Acquire(path string) (Executor, func())
}

// binaries keeps the compiled workers a worker fetched, by hash, and
// fetches each once however many slots ask at the same time.
type binaries struct {
	dir string

	mu       sync.Mutex
	fetching map[string]chan struct{}
	failed   map[string]error
}

// keepBinaries is how many fetched builds a worker keeps on disk.
const keepBinaries = 8

// native returns the executor for a task's build, or why it cannot run it
// compiled.
func (a *Agent) native(ctx context.Context, ref *BuildRef, pay *payloads) (Executor, func(), error) {
	switch {
	case a.cfg.Natives == nil || a.bins == nil:
		return nil, nil, errors.New("this worker runs blocks interpreted only (strata worker --engine interp, or no folder for builds)")
	case ref.Platform != Platform():
		return nil, nil, fmt.Errorf("the compiled build is for %s and this worker is %s", ref.Platform, Platform())
	case len(ref.Hash) < 16 || strings.ContainsAny(ref.Hash, `/\.`):
		return nil, nil, fmt.Errorf("bad build hash %q", ref.Hash)
	}
	path, err := a.bins.get(ctx, *ref, pay)
	if err != nil {
		return nil, nil, err
	}
	ex, release := a.cfg.Natives.Acquire(path)
	return ex, release, nil
}

func (b *binaries) get(ctx context.Context, ref BuildRef, pay *payloads) (string, error) {
	path := filepath.Join(b.dir, "worker-"+ref.Hash)
	for {
		if _, err := os.Stat(path); err == nil {
			now := time.Now()
			_ = os.Chtimes(path, now, now) // recently used: kept by prune
			return path, nil
		}
		b.mu.Lock()
		if err := b.failed[ref.Hash]; err != nil {
			b.mu.Unlock()
			return "", err
		}
		wait := b.fetching[ref.Hash]
		if wait == nil {
			done := make(chan struct{})
			b.fetching[ref.Hash] = done
			b.mu.Unlock()
			err := b.fetch(ctx, ref, pay, path)
			b.mu.Lock()
			delete(b.fetching, ref.Hash)
			if err != nil && ctx.Err() == nil {
				// Said once per build; its tasks run interpreted rather
				// than fetch again for each.
				b.failed[ref.Hash] = err
			}
			b.mu.Unlock()
			close(done)
			if err != nil {
				return "", err
			}
			continue
		}
		b.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

func (b *binaries) fetch(ctx context.Context, ref BuildRef, pay *payloads, path string) error {
	body, err := pay.getShared(ctx, ref)
	if err != nil {
		return fmt.Errorf("fetch compiled worker %s: %w", ref.Hash[:12], err)
	}
	if err := os.MkdirAll(b.dir, 0o755); err != nil {
		return err
	}
	if err := writeFileAtomic(path, body, 0o755); err != nil {
		return fmt.Errorf("keep compiled worker %s: %w", ref.Hash[:12], err)
	}
	build.PruneBinaries(b.dir, keepBinaries)
	return nil
}

// ReadsLake: a compiled build's tasks go to the same workers (Pool.ReadsLake).
func (c *Compiled) ReadsLake() bool { return c.p.ReadsLake() }
