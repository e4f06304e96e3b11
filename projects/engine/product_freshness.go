package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/supervisor"
	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// Freshness on global products (Mage's outdated_after): a pipeline that
// declares `reads: [{product: raw_events, freshness: {max_age: 6h}}]` gets,
// for each partition a ctx.Product call reads, a current version younger
// than max_age. An older (or missing) partition is refreshed first by
// running the pipeline that exposes the product for that partition, once
// however many readers ask at the same time: concurrent readers wait for the
// same refresh (single flight) and read its version.

// maxFreshPartitions bounds the partitions one read refreshes: a read of
// years of partitions is a backfill's job, not a host call's.
const maxFreshPartitions = 366

// refreshes is the single flight of product refreshes, by product/partition.
type refreshes struct {
	mu      sync.Mutex
	flights map[string]*flight
}

type flight struct {
	done chan struct{}
	err  error
}

// do runs fn for key unless a run for key is in flight, in which case it
// waits for that one and returns its error.
func (r *refreshes) do(ctx context.Context, key string, fn func() error) error {
	r.mu.Lock()
	if r.flights == nil {
		r.flights = map[string]*flight{}
	}
	if f := r.flights[key]; f != nil {
		r.mu.Unlock()
		select {
		case <-f.done:
			return f.err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	f := &flight{done: make(chan struct{})}
	r.flights[key] = f
	r.mu.Unlock()
	f.err = fn()
	r.mu.Lock()
	delete(r.flights, key)
	r.mu.Unlock()
	close(f.done)
	return f.err
}

// ensureFresh refreshes the partitions of product that window w reads when
// reader declares a max_age for it and they are older. In an environment
// (env, a pin owner: RunOptions.PreferPinned) the age is that of the
// version the environment reads, and a refresh runs into the environment,
// staged and pinned there, as any run aimed at it: a read inside an
// environment never makes anything current in prod.
func (e *Engine) ensureFresh(ctx context.Context, reader *project.Pipeline, product string, w sdk.Window, env string) error {
	rule := reader.Read(product)
	if rule == nil || rule.MaxAge <= 0 {
		return nil
	}
	owner, block := e.project().Product(product)
	if owner == nil {
		return nil // the read itself reports the unknown product
	}
	spec, err := SpecOf(block.Partitions)
	if err != nil {
		return err
	}
	if w.Partition == "" {
		// A window of time keys reads every cell of those times: a dynamic
		// dimension's cells are its key set's.
		if spec, err = e.loadKeySets(ctx, owner.ID, spec); err != nil {
			return fmt.Errorf("read %s: %w", product, err)
		}
	}
	keys, err := windowKeys(spec, w, e.now())
	if err != nil || len(keys) == 0 {
		return err
	}
	return e.refreshOld(ctx, reader, rule, owner, block, product, keys, env)
}

// ensureFreshCells is ensureFresh of product's cells keys (a mapped read's:
// cell_read.go): those that have started by now are refreshed where the
// reader's max_age finds them too old or missing.
func (e *Engine) ensureFreshCells(ctx context.Context, reader *project.Pipeline, product string, keys []string, env string) error {
	rule := reader.Read(product)
	if rule == nil || rule.MaxAge <= 0 {
		return nil
	}
	owner, block := e.project().Product(product)
	if owner == nil {
		return nil // the read itself reports the unknown product
	}
	spec, err := SpecOf(block.Partitions)
	if err != nil {
		return err
	}
	now := e.now()
	var started []string
	for _, k := range keys {
		if p, err := spec.Parse(k); err == nil && !p.Start.After(now) {
			started = append(started, k)
		}
	}
	if len(started) == 0 {
		return nil
	}
	return e.refreshOld(ctx, reader, rule, owner, block, product, started, env)
}

// refreshOld refreshes the partitions keys of product (written by owner's
// block) that are older than rule's max_age for reader, or missing, one
// run each (single flight).
func (e *Engine) refreshOld(ctx context.Context, reader *project.Pipeline, rule *project.ProductRead, owner *project.Pipeline, block *project.Block, product string, keys []string, env string) error {
	now := e.now()
	ages, err := e.versionTimes(ctx, product, keys, env)
	if err != nil {
		return err
	}
	var old []string
	for _, k := range keys {
		if at, ok := ages[k]; !ok || now.Sub(at) > rule.MaxAge {
			old = append(old, k)
		}
	}
	putBack, err := e.wh.PutBacks(ctx, product, old)
	if err != nil {
		return err
	}
	var errs []string
	for _, k := range old {
		if pb, ok := putBack[k]; ok {
			errs = append(errs, rolledBackTooOld(product, k, owner.ID, rule.MaxAge, ages[k], pb, now))
			continue
		}
		err := e.fresh.do(ctx, env+"/"+product+"/"+k, func() error {
			// Another reader may have refreshed it while this one looked.
			if again, err := e.versionTimes(ctx, product, []string{k}, env); err == nil {
				if at, ok := again[k]; ok && e.now().Sub(at) <= rule.MaxAge {
					return nil
				}
			}
			opt := RunOptions{RunID: fmt.Sprintf("fresh_%s_%s_%d", owner.ID, k, e.now().UnixNano()),
				Origin: &Origin{Kind: OriginFreshness, Note: fmt.Sprintf("%s read by %s (max_age %s)", product, reader.ID, rule.MaxAge)}}
			if env != "" {
				// Staged and pinned in the environment, its own reads
				// through it; based on prod's current version (the
				// publish records it), which its promote checks.
				opt.RunID = fmt.Sprintf("fresh_%s_%s_%s_%d", strings.ReplaceAll(env, ":", "_"), owner.ID, k, e.now().UnixNano())
				opt.Stage, opt.Pin, opt.PreferPinned = true, env, env
				opt.Origin.Note += " in " + env
			}
			if block.Partitions.Interval != owner.Partitions.Interval {
				opt.Interval = block.Partitions.Interval
			}
			// The reader holds a kernel and computes nothing until the
			// refresh ends: with every kernel held by such readers, the
			// refresh would wait for one only its own end frees. It runs
			// on the reader's loan instead (supervisor.WithLoan).
			res, err := e.Run(supervisor.WithLoan(ctx), owner.ID, k, opt)
			if err != nil {
				return err
			}
			if res.State != StateSucceeded {
				return fmt.Errorf("%s", res.Error)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, fmt.Sprintf("refresh %s %s (older than max_age %s): %v", product, k, rule.MaxAge, err))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// rolledBackTooOld says why a read of a partition that a rollback put back
// and that is older than max_age fails rather than refresh it.
//
// The version a rollback makes current again keeps its own computed-at
// time: its rows are as old as they were, so calling it fresh (counting
// its age from the rollback) would be the lie max_age is there to prevent;
// Dagster measures freshness from when data was materialized and SQLMesh
// does not re-date an interval when a plan points back at an older table.
// Refreshing it would recompute over the rollback a person just made
// (with, likely, the code or data that made them roll back), the moment
// the version is older than max_age. So the read fails and says what to
// do; once anything writes the partition again it is refreshed as usual.
func rolledBackTooOld(product, key, owner string, maxAge time.Duration, computed time.Time, pb warehouse.PutBack, now time.Time) string {
	what := fmt.Sprintf("its current version v%d was computed at %s (%s ago) and made current again by a rollback at %s",
		pb.Version, computed.UTC().Format(time.RFC3339), now.Sub(computed).Round(time.Second), pb.At.UTC().Format(time.RFC3339))
	if pb.Version == 0 {
		what = fmt.Sprintf("a rollback at %s left it no current version", pb.At.UTC().Format(time.RFC3339))
	}
	return fmt.Sprintf("%s %s is older than max_age %s: %s; a refresh would undo the rollback, so none ran: run pipeline %s for %s to refresh it",
		product, key, maxAge, what, owner, key)
}

// OriginFreshness marks a run that refreshed a product a reader found too old.
const OriginFreshness = "freshness"

// windowKeys lists the partitions of spec a window reads that have
// started by now.
func windowKeys(spec partitions.Spec, w sdk.Window, now time.Time) ([]string, error) {
	if spec.Interval == partitions.None && !spec.Dimensional() {
		return []string{partitions.AllKey}, nil
	}
	var out []string
	add := func(from, to string) error {
		it, err := spec.Iter(from, to)
		if err != nil {
			return err
		}
		for p := range it {
			if p.Start.After(now) || len(out) >= maxFreshPartitions {
				break
			}
			out = append(out, p.Key)
		}
		return nil
	}
	switch {
	case w.Partition != "" && spec.Dimensional():
		// One cell: its key is not a range of time keys.
		p, err := spec.Parse(w.Partition)
		if err != nil || p.Start.After(now) {
			return nil, err
		}
		return []string{p.Key}, nil
	case w.Partition != "":
		return out, add(w.Partition, w.Partition)
	case w.Last > 0:
		last := spec.Latest(now)
		if last.Key == "" {
			return nil, nil
		}
		first := last
		for i := 1; i < min(w.Last, maxFreshPartitions); i++ {
			prev := spec.Prev(first)
			if !spec.Start.IsZero() && prev.End.Compare(spec.Start) <= 0 {
				break
			}
			first = prev
		}
		return out, add(first.Key, last.Key)
	case w.From != "" && w.To != "":
		return out, add(w.From, w.To)
	}
	return nil, nil // open ranges and periods: read as they are
}

// versionTimes returns when the version of each partition a reader in env
// (a pin owner; "" is prod) reads was written: its newest pinned one, else
// the current one (warehouse.ChosenVersion).
func (e *Engine) versionTimes(ctx context.Context, product string, keys []string, env string) (map[string]time.Time, error) {
	chosen, args := warehouse.ChosenVersion(env)
	args = append(args, product)
	for _, k := range keys {
		args = append(args, k)
	}
	ph := strings.TrimSuffix(strings.Repeat("?,", len(keys)), ",")
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT v.partition, v.created_at FROM _strata.versions v
		WHERE `+chosen+` AND v.product = ? AND v.partition IN (`+ph+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]time.Time{}
	for rows.Next() {
		var k string
		var t time.Time
		if err := rows.Scan(&k, &t); err != nil {
			return nil, err
		}
		out[k] = t
	}
	return out, rows.Err()
}
