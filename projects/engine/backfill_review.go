package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// A backfill launched with --publish review runs every partition and stages
// its versions (pinned against retention under the backfill's id) without
// making any current. Its review is computed from the warehouse on demand:
// per product, a diff of every staged version against the version current
// in its partition now (warehouse.DiffSet: unchanged partitions are known
// from their content hashes, the rest are compared in DuckDB), and the
// pipeline's review checks evaluated over the whole staged backfill. The
// review is not stored: it always describes what a promote would do now.

// BackfillReview is what a staged backfill would change, and whether its
// gates let it be promoted.
type BackfillReview struct {
	Backfill *BackfillStatus `json:"backfill"`
	Staged   int             `json:"staged"` // versions staged, not promoted yet
	Products []ProductReview `json:"products"`
	Gates    []GateResult    `json:"gates"`
	// GatesPassed: every gate passed (or there are none); a promote
	// without override needs it.
	GatesPassed bool        `json:"gates_passed"`
	Promotions  []Promotion `json:"promotions"` // earlier promotes of this backfill
	ElapsedMS   float64     `json:"elapsed_ms"`
}

// ProductReview is one product's diff in a review.
type ProductReview struct {
	Block string `json:"block"`
	*warehouse.ProductDiff
	// Newer lists partitions where a version newer than the staged one is
	// current: promoting there would overwrite it, so a promote refuses.
	Newer []string `json:"newer"`
}

// GateResult is one review check's outcome.
type GateResult struct {
	Name     string   `json:"name"`
	Kind     string   `json:"kind"`
	Product  string   `json:"product,omitempty"`
	Passed   bool     `json:"passed"`
	Detail   string   `json:"detail"`
	Failures []string `json:"failures,omitempty"` // the first failing partitions or rows
}

// stagedVersion is one version a review backfill staged.
type stagedVersion = warehouse.PinnedVersion

// reviewable loads a review backfill's status and pipeline, refusing other
// backfills.
func (e *Engine) reviewable(ctx context.Context, id string) (*BackfillStatus, *project.Pipeline, error) {
	st, err := e.Backfill(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if st.Spec.Publish != PublishReview {
		return nil, nil, fmt.Errorf("backfill %s was published %s, not for review: it has nothing staged to review", id, st.Spec.Publish)
	}
	pl, err := e.Pipeline(st.Pipeline)
	if err != nil {
		return nil, nil, err
	}
	return st, pl, nil
}

// productBlocks maps each product the pipeline writes to its block.
func productBlocks(pl *project.Pipeline) map[string]*project.Block {
	out := map[string]*project.Block{}
	for _, b := range pl.Blocks {
		out[ProductName(pl, b)] = b
	}
	return out
}

// groupStaged groups staged versions by product, in pipeline block order.
func groupStaged(pl *project.Pipeline, staged []stagedVersion) ([]string, map[string][]stagedVersion) {
	by := map[string][]stagedVersion{}
	for _, s := range staged {
		by[s.Product] = append(by[s.Product], s)
	}
	var order []string
	for _, b := range pl.Blocks {
		if p := ProductName(pl, b); len(by[p]) > 0 {
			order = append(order, p)
		}
	}
	var gone []string // products the pipeline no longer writes
	blocks := productBlocks(pl)
	for p := range by {
		if blocks[p] == nil {
			gone = append(gone, p)
		}
	}
	sort.Strings(gone)
	return append(order, gone...), by
}

// BackfillReview computes the review of a staged backfill.
func (e *Engine) BackfillReview(ctx context.Context, id string) (*BackfillReview, error) {
	st, pl, err := e.reviewable(ctx, id)
	if err != nil {
		return nil, err
	}
	return e.review(ctx, st, pl, nil)
}

// review computes the review; only, when not nil, limits the diffs to
// those products (a promote needs only what its gates read).
func (e *Engine) review(ctx context.Context, st *BackfillStatus, pl *project.Pipeline, only map[string]bool) (*BackfillReview, error) {
	start := time.Now()
	id := st.ID
	staged, err := e.wh.Pinned(ctx, id)
	if err != nil {
		return nil, err
	}
	rv := &BackfillReview{Backfill: st, Staged: len(staged), Products: []ProductReview{}, Gates: []GateResult{}}
	blocks := productBlocks(pl)
	order, by := groupStaged(pl, staged)
	for _, product := range order {
		if only != nil && !only[product] {
			continue
		}
		pr := ProductReview{Newer: []string{}}
		var keys []string
		if b := blocks[product]; b != nil {
			pr.Block, keys = b.ID, b.Key
		}
		pairs := make([]warehouse.VersionPair, len(by[product]))
		for i, s := range by[product] {
			pairs[i] = warehouse.VersionPair{Partition: s.Partition, From: s.Current, To: s.Version}
			if s.Current > s.Version {
				pr.Newer = append(pr.Newer, s.Partition)
			}
		}
		if pr.ProductDiff, err = e.wh.DiffSet(ctx, product, pairs, warehouse.DiffOptions{Keys: keys}); err != nil {
			return nil, err
		}
		rv.Products = append(rv.Products, pr)
	}
	if rv.Gates, err = e.evaluateGates(ctx, pl, rv.Products, by); err != nil {
		return nil, err
	}
	rv.GatesPassed = true
	for _, g := range rv.Gates {
		rv.GatesPassed = rv.GatesPassed && g.Passed
	}
	if rv.Promotions, err = e.promotions(ctx, id); err != nil {
		return nil, err
	}
	rv.ElapsedMS = ms(time.Since(start))
	return rv, nil
}

// PartitionDiffOptions pick one partition of a review backfill's product.
type PartitionDiffOptions struct {
	Product   string // product name or block id
	Partition string
	Rows      int // changed rows to return
}

// BackfillPartitionDiff is the row diff of one staged partition against the
// version current there now, keyed by the product's key columns.
func (e *Engine) BackfillPartitionDiff(ctx context.Context, id string, opt PartitionDiffOptions) (*warehouse.PartitionDiff, error) {
	_, pl, err := e.reviewable(ctx, id)
	if err != nil {
		return nil, err
	}
	product, b := resolveProduct(pl, opt.Product)
	var keys []string
	if b != nil {
		keys = b.Key
	}
	s, found, err := e.wh.PinnedIn(ctx, id, product, opt.Partition)
	if err != nil {
		return nil, err
	}
	if found {
		return e.wh.DiffVersions(ctx, product, s.Partition, s.Current, s.Version, warehouse.DiffOptions{Keys: keys, Rows: opt.Rows})
	}
	// Not staged there: say what is, from the whole list (the rare path).
	staged, err := e.wh.Pinned(ctx, id)
	if err != nil {
		return nil, err
	}
	var have []string
	for _, s := range staged {
		if s.Product == product {
			have = append(have, s.Partition)
		}
	}
	if len(have) == 0 {
		return nil, errNotFoundf("backfill %s has nothing staged for product %q (products of pipeline %s: %s)", id, opt.Product, pl.ID, strings.Join(productNames(pl), ", "))
	}
	return nil, errNotFoundf("backfill %s staged no version of %s partition %s (%d staged partitions, %s..%s)", id, product, opt.Partition, len(have), have[0], have[len(have)-1])
}

// resolveProduct reads a product name or a block id.
func resolveProduct(pl *project.Pipeline, name string) (string, *project.Block) {
	for _, b := range pl.Blocks {
		if b.ID == name || ProductName(pl, b) == name {
			return ProductName(pl, b), b
		}
	}
	return name, nil
}

func productNames(pl *project.Pipeline) []string {
	var out []string
	for _, b := range pl.Blocks {
		out = append(out, ProductName(pl, b))
	}
	return out
}
