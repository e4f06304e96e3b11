package engine

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/stratahq/strata/projects/warehouse"
)

// The versions one pin owner holds, across pipelines, reviewed and
// promoted as a unit: how an environment (projects/envs) is diffed against
// prod and merged. The engine does not know environments; it knows pin
// owners, the review diff and the review checks, which apply here exactly
// as they do to a review backfill.

// PinnedReview is what promoting an owner's pinned versions would change in
// one pipeline's products, and whether its review checks pass.
type PinnedReview struct {
	Pipeline    string          `json:"pipeline"` // "" for products no pipeline writes now
	Products    []ProductReview `json:"products"`
	Gates       []GateResult    `json:"gates"`
	GatesPassed bool            `json:"gates_passed"`
}

// ReviewPinned diffs every version owner pinned against the version current
// in its partition now, per pipeline, and evaluates each pipeline's review
// checks over them.
func (e *Engine) ReviewPinned(ctx context.Context, owner string) ([]PinnedReview, int, error) {
	staged, err := e.wh.Pinned(ctx, owner)
	if err != nil {
		return nil, 0, err
	}
	proj := e.project()
	ids := make([]string, 0, len(proj.Pipelines))
	for id := range proj.Pipelines {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	claimed := map[string]bool{}
	out := []PinnedReview{}
	for _, id := range ids {
		pl := proj.Pipelines[id]
		blocks := productBlocks(pl)
		var mine []stagedVersion
		for _, s := range staged {
			if blocks[s.Product] != nil {
				mine = append(mine, s)
				claimed[s.Product] = true
			}
		}
		if len(mine) == 0 {
			continue
		}
		pr := PinnedReview{Pipeline: id, Products: []ProductReview{}}
		order, by := groupStaged(pl, mine)
		for _, product := range order {
			rv, err := e.diffPinned(ctx, product, blocks[product].ID, blocks[product].Key, by[product])
			if err != nil {
				return nil, 0, err
			}
			pr.Products = append(pr.Products, rv)
		}
		if pr.Gates, err = e.evaluateGates(ctx, pl, pr.Products, by); err != nil {
			return nil, 0, err
		}
		pr.GatesPassed = true
		for _, g := range pr.Gates {
			pr.GatesPassed = pr.GatesPassed && g.Passed
		}
		out = append(out, pr)
	}
	// Products no pipeline writes any more: diffed, with no checks.
	orphan := map[string][]stagedVersion{}
	var names []string
	for _, s := range staged {
		if !claimed[s.Product] {
			if orphan[s.Product] == nil {
				names = append(names, s.Product)
			}
			orphan[s.Product] = append(orphan[s.Product], s)
		}
	}
	if len(names) > 0 {
		pr := PinnedReview{Products: []ProductReview{}, Gates: []GateResult{}, GatesPassed: true}
		for _, p := range names {
			rv, err := e.diffPinned(ctx, p, "", nil, orphan[p])
			if err != nil {
				return nil, 0, err
			}
			pr.Products = append(pr.Products, rv)
		}
		out = append(out, pr)
	}
	return out, len(staged), nil
}

// diffPinned is one product's review diff of pinned versions against the
// current ones.
func (e *Engine) diffPinned(ctx context.Context, product, block string, keys []string, staged []stagedVersion) (ProductReview, error) {
	pr := ProductReview{Block: block, Newer: []string{}}
	pairs := make([]warehouse.VersionPair, len(staged))
	for i, s := range staged {
		pairs[i] = warehouse.VersionPair{Partition: s.Partition, From: s.Current, To: s.Version}
		if s.Current > s.Version {
			pr.Newer = append(pr.Newer, s.Partition)
		}
	}
	var err error
	pr.ProductDiff, err = e.wh.DiffSet(ctx, product, pairs, warehouse.DiffOptions{Keys: keys})
	return pr, err
}

// PinnedPartitionDiff is the keyed row diff of the version owner pinned in
// one partition against the current one there.
func (e *Engine) PinnedPartitionDiff(ctx context.Context, owner string, opt PartitionDiffOptions) (*warehouse.PartitionDiff, error) {
	product, keys := opt.Product, []string(nil)
	for _, pl := range e.project().Pipelines {
		if p, b := resolveProduct(pl, opt.Product); b != nil {
			product, keys = p, b.Key
			break
		}
	}
	s, found, err := e.wh.PinnedIn(ctx, owner, product, opt.Partition)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("%s has no version of %s partition %s of its own (it shows the current one): %w", owner, product, opt.Partition, warehouse.ErrNotFound)
	}
	return e.wh.DiffVersions(ctx, product, s.Partition, s.Current, s.Version, warehouse.DiffOptions{Keys: keys, Rows: opt.Rows})
}

// PinnedPromote is what PromotePinned made current, per product.
type PinnedPromote struct {
	Batch      string                     `json:"batch"`
	Partitions map[string]int             `json:"partitions"` // product -> partitions switched
	Versions   []warehouse.VersionRef     `json:"versions"`
	Overridden []GateResult               `json:"overridden,omitempty"`
	Conflicts  []warehouse.SwitchConflict `json:"conflicts,omitempty"`
	ElapsedMS  float64                    `json:"elapsed_ms"`
}

// ErrNothingPinned is PromotePinned's answer when the owner holds nothing.
var ErrNothingPinned = errors.New("nothing to promote")

// PromotePinned makes every version owner pinned current, in one
// transaction under batch (so `strata backfill rollback`-style reverts can
// find it), each a compare-and-set against the version current when it was
// staged (its based_on). One partition changed meanwhile refuses all of it
// with a *warehouse.SwitchConflictError naming every such partition. The
// review checks of each pipeline must pass unless override; a failure is a
// *GateError. The owner's pins are released in the same transaction.
func (e *Engine) PromotePinned(ctx context.Context, owner, batch string, override bool) (*PinnedPromote, error) {
	start := time.Now()
	reviews, n, err := e.ReviewPinned(ctx, owner)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("%s holds no version of its own: %w", owner, ErrNothingPinned)
	}
	res := &PinnedPromote{Batch: batch, Partitions: map[string]int{}}
	var failed []GateResult
	for _, r := range reviews {
		for _, g := range r.Gates {
			if !g.Passed {
				failed = append(failed, g)
			}
		}
	}
	if len(failed) > 0 {
		if !override {
			return nil, &GateError{Failed: failed}
		}
		res.Overridden = failed
	}
	staged, err := e.wh.Pinned(ctx, owner)
	if err != nil {
		return nil, err
	}
	switches := make([]warehouse.Switch, len(staged))
	for i, s := range staged {
		switches[i] = warehouse.Switch{Product: s.Product, Partition: s.Partition, To: s.Version, Expect: warehouse.ExpectBasedOn}
	}
	changed, err := e.wh.SwitchPinned(ctx, batch, switches, owner)
	if err != nil {
		return nil, err
	}
	byPipeline := map[string][]warehouse.VersionRef{}
	owners := map[string]string{}
	for id, pl := range e.project().Pipelines {
		for p := range productBlocks(pl) {
			owners[p] = id
		}
	}
	for _, s := range changed {
		ref := warehouse.VersionRef{Product: s.Product, Partition: s.Partition, Version: s.To}
		res.Partitions[s.Product]++
		res.Versions = append(res.Versions, ref)
		byPipeline[owners[s.Product]] = append(byPipeline[owners[s.Product]], ref)
	}
	// A promote is a publish to whatever follows prod (event triggers).
	for pl, refs := range byPipeline {
		if pl != "" {
			e.published(pl, "", batch, refs)
		}
	}
	res.ElapsedMS = ms(time.Since(start))
	return res, nil
}

// RevertPinnedPromote switches every partition a PromotePinned batch made
// current back to the version current before it, in one transaction (a
// partition changed since refuses it all with a
// *warehouse.SwitchConflictError), and tells what follows prod, as a
// backfill's rollback does. It returns the partitions switched back.
func (e *Engine) RevertPinnedPromote(ctx context.Context, batch string) ([]warehouse.Switch, error) {
	back, err := e.wh.RevertBatch(ctx, batch)
	if err != nil {
		return nil, err
	}
	owners := map[string]string{}
	for id, pl := range e.project().Pipelines {
		for p := range productBlocks(pl) {
			owners[p] = id
		}
	}
	byPipeline := map[string][]warehouse.VersionRef{}
	for _, s := range back {
		byPipeline[owners[s.Product]] = append(byPipeline[owners[s.Product]], warehouse.VersionRef{Product: s.Product, Partition: s.Partition, Version: s.To})
	}
	for pl, refs := range byPipeline {
		if pl != "" {
			e.published(pl, "", batch, refs)
		}
	}
	return back, nil
}
