package engine

import (
	"context"
	"fmt"
	"github.com/stratahq/strata/kernel/protocol"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/projects/fingerprint"
	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/secrets"
	"github.com/stratahq/strata/projects/snapshot"
	"github.com/stratahq/strata/projects/warehouse"
)

// Engine runs the pipelines of one project against its warehouse.
type Engine struct {
	proj *project.Project
	wh   *warehouse.Warehouse
	pool Executor
	// compiler builds native workers; nil runs everything interpreted.
	compiler *build.Compiler
	// noCompiled is why compiler is nil, when the process says.
	noCompiled string
	// projectKernel: see Options.ProjectKernel.
	projectKernel func(ctx context.Context, module string, imports []string) (Executor, func(), error)
	// shipBuild, with workers, runs a compiled build on them.
	shipBuild func(ctx context.Context, w *build.Worker) (Executor, error)
	store     *Store
	hub       *Hub
	now       func() time.Time
	// secrets resolves the project's secrets for blocks and masks them
	// in what runs produce (secret_mask.go).
	secrets *secrets.Store

	// FanOutWindow bounds the dynamic children in flight per fan-out.
	FanOutWindow int

	mu        sync.Mutex
	backfills map[string]*backfillRun // running in this process
	// specs are backfills' specs as read (immutable once written): every
	// status read needs one, and on a lake a query costs ~7 ms.
	specs sync.Map // backfill id -> its spec's JSON
	// launchMu makes a user launch's overlap check and its registration
	// one step, so that two launches at once cannot both pass it.
	launchMu sync.Mutex
	fresh    refreshes          // single flight of product refreshes (freshness)
	promotes promoteLocks       // one promote or discard per backfill at a time
	pins     map[string]*pinned // loaded snapshots by hash/pipeline
	active   activeRuns         // runs computing in this process (CancelRun)
	inUse    map[string]int     // snapshot hash -> runs and backfills in flight using it

	// snapMu orders taking and loading snapshots against collecting them
	// (snapshot_gc.go).
	snapMu   sync.Mutex
	readOnly bool
	// statusCache keeps backfill statuses' aggregates over every cell
	// between this process's writes (backfill_status_cache.go).
	statusCache statusCache
	// background is work started for subscribers (reviews pushed); Close
	// waits for it, so that nothing reads the warehouse after.
	background sync.WaitGroup
	bgMu       sync.Mutex
	closed     bool // no background work starts after Close

	// planPage is how many cells a backfill pass reads the plan of at
	// once (0: defaultPlanPage); onLoad, when set, is told how many
	// per-cell values a plan or a launch reads into Go at once (tests
	// hold the launch to pages with it).
	planPage int
	onLoad   func(what string, n int)
}

// loaded reports n per-cell values read into Go at once to onLoad.
func (e *Engine) loaded(what string, n int) {
	if e.onLoad != nil {
		e.onLoad(what, n)
	}
}

func (e *Engine) pageSize() int {
	if e.planPage > 0 {
		return e.planPage
	}
	return defaultPlanPage
}

// Options configure an Engine.
type Options struct {
	Now func() time.Time // default time.Now
	// Compiler, when set, runs Go blocks natively (compiled workers) when a
	// Go toolchain is found; see RunOptions.Engine.
	Compiler *build.Compiler
	// NoCompiled says why there is no Compiler, for the error a forced
	// --engine compiled gets (for example: Go blocks run on workers).
	NoCompiled string
	// ShipBuild, when set, is how a compiled build runs: the executor
	// (workers) takes the built binary, instead of kernels on this machine
	// starting it. The build still happens here, once per pipeline version.
	ShipBuild func(ctx context.Context, w *build.Worker) (Executor, error)
	// ProjectKernel, when set, is how interpreted runs get a kernel pool
	// carrying the third-party packages their blocks import (a project
	// kernel, kernel/projectkernel), resolved through the go.mod and go.sum
	// in module (the pipeline version's snapshot folder); release it when
	// the run ends. Unset: such blocks are refused by the plain kernel.
	ProjectKernel func(ctx context.Context, module string, imports []string) (Executor, func(), error)
	// ReadOnly is for a warehouse opened read-only (inspection commands):
	// the run state is read as it is, never created or appended to.
	ReadOnly bool
}

// New returns an engine that runs Go blocks on pool; it creates the run
// state tables if needed.
func New(ctx context.Context, proj *project.Project, wh *warehouse.Warehouse, pool Executor, opt Options) (*Engine, error) {
	var store *Store
	if opt.ReadOnly {
		store = ReadOnlyStore(wh.DB())
	} else {
		var err error
		if store, err = OpenStore(ctx, wh.DB()); err != nil {
			return nil, err
		}
		store.Guard(wh.Healthy)
		store.RideAlong(wh)
	}
	now := opt.Now
	if now == nil {
		now = time.Now
	}
	e := &Engine{proj: proj, wh: wh, pool: pool, compiler: opt.Compiler, noCompiled: opt.NoCompiled, projectKernel: opt.ProjectKernel, shipBuild: opt.ShipBuild, store: store, hub: NewHub(), now: now,
		FanOutWindow: 64, backfills: map[string]*backfillRun{}, pins: map[string]*pinned{}, inUse: map[string]int{}, readOnly: opt.ReadOnly}
	// SQL blocks LOAD the project's DuckDB extensions (a warehouse
	// opened with them has them already) and resolve its secrets.
	wh.UseExtensions(proj.Extensions)
	e.secrets = secrets.New(proj.Dir, proj.Secrets)
	wh.UseSecrets(e.secrets)
	if !opt.ReadOnly {
		if err := e.deriveOwners(ctx); err != nil {
			store.Close()
			return nil, err
		}
	}
	e.applyOwners(ctx, proj)
	// Opening a project for writing is a safe moment to drop the
	// snapshots nothing needs: nothing of this process runs yet.
	e.collectSnapshots(ctx)
	return e, nil
}

// Compiler is the engine's builder of native workers; nil when the
// process runs everything interpreted.
func (e *Engine) Compiler() *build.Compiler { return e.compiler }

// Close waits for background work and stops the state writer after
// flushing it.
func (e *Engine) Close() {
	e.bgMu.Lock()
	e.closed = true
	e.bgMu.Unlock()
	e.background.Wait()
	e.store.Close()
}

// Hub is where live events are published.
func (e *Engine) Hub() *Hub { return e.hub }

// Store is the run state log.
func (e *Engine) Store() *Store { return e.store }

// Project is the project this engine runs. The folder watcher swaps it
// from its own goroutine, so readers go through the lock.
func (e *Engine) Project() *project.Project { return e.project() }

// SetProject swaps in a reloaded project (after files changed on disk).
func (e *Engine) SetProject(p *project.Project) {
	e.applyOwners(context.Background(), p)
	e.mu.Lock()
	e.proj = p
	e.mu.Unlock()
	e.wh.UseExtensions(p.Extensions)
	e.secrets.Set(p.Secrets)
	e.hub.Publish(Notice{Kind: NoticeProject})
}

func (e *Engine) project() *project.Project {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.proj
}

// Pipeline returns a loaded pipeline, or an error naming the ones that exist
// or the problems that keep it from running.
func (e *Engine) Pipeline(id string) (*project.Pipeline, error) {
	proj := e.project()
	pl := proj.Pipelines[id]
	if pl == nil {
		return nil, fmt.Errorf("pipeline %q not found (pipelines: %s)", id, strings.Join(proj.PipelineIDs(), ", "))
	}
	if len(pl.Problems) > 0 {
		return nil, pl.Problems
	}
	return pl, nil
}

// ProductName is the warehouse product a block writes: its global product
// name when it exposes one, else "<pipeline>__<block>".
func ProductName(pl *project.Pipeline, b *project.Block) string {
	if b.Product != "" {
		return b.Product
	}
	return pl.ID + "__" + b.ID
}

// SpecOf turns a partition config into partition math. Dynamic dimensions
// come back without their key set: the engine loads it (dim_keyset.go).
func SpecOf(c project.PartitionConfig) (partitions.Spec, error) {
	if len(c.Dims) == 0 {
		return specOf(c)
	}
	// Every run of a cell asks for its pipeline's spec, whose static
	// dimensions index their values (a thousand customers: a tenth of a
	// millisecond a run); a loaded config's dimensions do not change, so
	// the spec is kept by their identity.
	k := specKey{c.Interval, c.Timezone, c.Start, c.WeekStart, c.TimePos, &c.Dims[0], len(c.Dims)}
	specCache.Lock()
	s, ok := specCache.m[k]
	specCache.Unlock()
	if ok {
		s.Dims = slices.Clone(s.Dims) // callers set a dimension's key set in place
		return s, nil
	}
	s, err := specOf(c)
	if err != nil {
		return s, err
	}
	specCache.Lock()
	if len(specCache.m) >= 256 { // configs of projects since reloaded
		clear(specCache.m)
	}
	specCache.m[k] = s
	specCache.Unlock()
	s.Dims = slices.Clone(s.Dims)
	return s, nil
}

type specKey struct {
	interval, zone, start, weekStart string
	timePos                          int
	dims                             *project.DimConfig
	n                                int
}

var specCache = struct {
	sync.Mutex
	m map[specKey]partitions.Spec
}{m: map[specKey]partitions.Spec{}}

func specOf(c project.PartitionConfig) (partitions.Spec, error) {
	s, err := partitions.NewSpec(c.Interval, c.Timezone, c.WeekStart, c.Start)
	if err != nil || len(c.Dims) == 0 {
		return s, err
	}
	for _, dc := range c.Dims {
		var d partitions.Dim
		if dc.Dynamic() {
			d, err = partitions.NewDynamicDim(dc.Name, dc.Product, dc.Column)
		} else {
			d, err = partitions.NewStaticDim(dc.Name, dc.Values)
		}
		if err != nil {
			return partitions.Spec{}, err
		}
		s.Dims = append(s.Dims, d)
	}
	s.TimePos = c.TimePos
	return s, s.Validate()
}

// blockSource is a block's code as one run sees it: read once at the start,
// so every partition and child of a run uses the same code. hash is its
// fingerprint: the code and the variables it reads.
type blockSource struct {
	text string
	hash string
	// others are the other files of a Go block's package, sent with text.
	others []protocol.SourceFile
}

// readSources reads the blocks of pl, a pipeline of the project in dir.
func readSources(dir string, pl *project.Pipeline) (map[string]blockSource, error) {
	out := make(map[string]blockSource, len(pl.Blocks))
	for _, b := range pl.Blocks {
		files, err := snapshot.BlockSources(dir, b)
		if err != nil {
			return nil, err
		}
		var text string
		var others []protocol.SourceFile
		for _, f := range files {
			if f.Path == b.File {
				text = string(f.Src)
			} else if f.Path == fingerprint.ModFile {
				continue // versions for the fingerprint, not source to run
			} else {
				others = append(others, protocol.SourceFile{Name: f.Path, Source: string(f.Src)})
			}
		}
		out[b.ID] = blockSource{text: text, hash: fingerprint.Block(files, pl.Variables), others: others}
	}
	return out, nil
}

// CodeHashes returns the fingerprint (fingerprint.Block) of every block of
// a pipeline of the project in dir, as its files are now: what staleness
// compares a version's code_hash with.
func CodeHashes(dir string, pl *project.Pipeline) (map[string]string, error) {
	srcs, err := readSources(dir, pl)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for id, s := range srcs {
		out[id] = s.hash
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ProductOf names the product of a pipeline's block.
func (e *Engine) ProductOf(pipelineID, blockID string) (string, error) {
	pl, err := e.Pipeline(pipelineID)
	if err != nil {
		return "", err
	}
	b := pl.Block(blockID)
	if b == nil {
		return "", fmt.Errorf("pipeline %s has no block %q", pl.ID, blockID)
	}
	return ProductName(pl, b), nil
}
