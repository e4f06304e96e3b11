package engine

import (
	"context"

	"github.com/stratahq/strata/projects/project"
)

// staleReasons words the dry run's "stale" reasons the way the notebook's
// cell states do (codeChange): a block's fingerprint covers its code and
// the variables it reads, and "the code of clv changed" after only
// `margin` changed sends a user looking for an edit nobody made. It asks
// the version's pipeline version once per block and old fingerprint, and
// only for the partitions a plan shows.
type staleReasons struct {
	e    *Engine
	pl   *project.Pipeline
	pd   *planData
	memo map[string]string // block id + old fingerprint -> reason
}

func (r *staleReasons) refine(ctx context.Context, pp *PlannedPartition) {
	s := pp.stale
	if s == nil || pp.State != "stale" {
		return
	}
	k := s.block.ID + "\x00" + s.vi.codeHash
	why, ok := r.memo[k]
	if !ok {
		_, why = r.e.codeChange(ctx, r.pl, s.block, s.product, pp.Key, s.vi, r.pd.hashes[s.block.ID])
		r.memo[k] = why
	}
	pp.Reason = why
}
