package envs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/warehouse"
)

// Diff is what an environment changes against prod: per pipeline, the
// review diff of each product (partitions added, changed, unchanged, with
// column statistics) and the review checks.
type Diff struct {
	Env         string                `json:"env"`
	Partitions  int                   `json:"partitions"` // pointers it holds of its own
	Pipelines   []engine.PinnedReview `json:"pipelines"`
	GatesPassed bool                  `json:"gates_passed"`
	ElapsedMS   float64               `json:"elapsed_ms"`
}

// Diff computes the environment's diff against prod now.
func (s *Store) Diff(ctx context.Context, name string) (*Diff, error) {
	start := time.Now()
	if _, err := s.Get(ctx, name); err != nil {
		return nil, err
	}
	reviews, n, err := s.eng.ReviewPinned(ctx, Owner(name))
	if err != nil {
		return nil, err
	}
	d := &Diff{Env: name, Partitions: n, Pipelines: reviews, GatesPassed: true}
	for _, r := range reviews {
		d.GatesPassed = d.GatesPassed && r.GatesPassed
	}
	d.ElapsedMS = float64(time.Since(start).Microseconds()) / 1000
	return d, nil
}

// PartitionDiff is the keyed row diff of one partition the environment
// changed, against prod's current version there.
func (s *Store) PartitionDiff(ctx context.Context, name string, opt engine.PartitionDiffOptions) (*warehouse.PartitionDiff, error) {
	if _, err := s.Get(ctx, name); err != nil {
		return nil, err
	}
	return s.eng.PinnedPartitionDiff(ctx, Owner(name), opt)
}

// ConflictError refuses a promote: prod changed these partitions after the
// environment's versions of them were built. Nothing was promoted.
type ConflictError struct {
	Env       string                     `json:"env"`
	Op        string                     `json:"op"` // promote or rollback
	Conflicts []warehouse.SwitchConflict `json:"conflicts"`
	Resolve   []string                   `json:"resolve"`
}

func (e *ConflictError) Error() string {
	parts := make([]string, 0, len(e.Conflicts))
	for i, c := range e.Conflicts {
		if i == 10 {
			parts = append(parts, fmt.Sprintf("and %d more", len(e.Conflicts)-10))
			break
		}
		parts = append(parts, c.String())
	}
	if e.Op == "rollback" {
		return fmt.Sprintf("rollback of %s's promote refused, nothing was switched: prod changed %d partitions since (%s); %s",
			e.Env, len(e.Conflicts), strings.Join(parts, "; "), strings.Join(e.Resolve, ", or "))
	}
	own := 0
	for _, c := range e.Conflicts {
		if ownChange(c) {
			own++
		}
	}
	why := fmt.Sprintf("prod changed %d partitions after %s built its versions of them", len(e.Conflicts)-own, e.Env)
	switch {
	case own == len(e.Conflicts):
		why = fmt.Sprintf("%d of %s's versions were computed from upstream versions %s has replaced since", own, e.Env, e.Env)
	case own > 0:
		why += fmt.Sprintf(", and %d of its versions were computed from upstream versions it has replaced since", own)
	}
	return fmt.Sprintf("promote %s refused, nothing was promoted: %s (%s); %s",
		e.Env, why, strings.Join(parts, "; "), strings.Join(e.Resolve, ", or "))
}

// ownChange says the conflict is the environment's own doing, not prod's:
// the version read an upstream version the environment replaced (the same
// promote makes a newer one current) or that no longer exists.
func ownChange(c warehouse.SwitchConflict) bool {
	return c.Input != "" && (c.InputPromoted || c.InputGone)
}

// Unwrap lets errors.Is(err, warehouse.ErrSwitchConflict) find it.
func (e *ConflictError) Unwrap() error { return warehouse.ErrSwitchConflict }

// Promote makes every pointer of the environment prod's, in one
// transaction, each compared against what prod held when it was built.
// The pipelines' review checks must pass unless override. The environment
// stays, holding nothing of its own.
func (s *Store) Promote(ctx context.Context, name string, override bool, dir string) (*engine.PinnedPromote, error) {
	if _, err := s.Get(ctx, name); err != nil {
		return nil, err
	}
	batch := "env_" + name + "_" + strconv.FormatInt(time.Now().UnixNano(), 36)
	res, err := s.eng.PromotePinned(ctx, Owner(name), batch, override)
	var sce *warehouse.SwitchConflictError
	if errors.As(err, &sce) {
		return nil, &ConflictError{Env: name, Op: "promote", Conflicts: sce.Conflicts, Resolve: []string{
			fmt.Sprintf("rebuild those partitions in %s over the newer data (`strata backfill %s PIPELINE --env %s --from … --to … --reprocess all`) and promote again", name, dir, name),
			fmt.Sprintf("discard %s (`strata env discard %s %s`)", name, dir, name),
		}}
	}
	if errors.Is(err, engine.ErrNothingPinned) {
		return nil, fmt.Errorf("environment %s changes nothing: every partition it shows is prod's already", name)
	}
	return res, err
}

// Rollback undoes a promote of the environment: every partition it made
// prod's goes back to the version prod held before, in one transaction.
// batch "" is the environment's latest promote not rolled back yet. A
// partition prod changed since refuses it all (a *ConflictError). The
// environment is not refilled: what it promoted stays prod's history.
func (s *Store) Rollback(ctx context.Context, name, batch string) (string, int, error) {
	if _, err := s.Get(ctx, name); err != nil {
		return "", 0, err
	}
	prefix := "env_" + name + "_"
	if batch == "" {
		last, err := s.lastPromote(ctx, name)
		if err != nil {
			return "", 0, err
		}
		if last == nil {
			return "", 0, fmt.Errorf("environment %s has no promote to roll back", name)
		}
		batch = last.Batch
	} else if !strings.HasPrefix(batch, prefix) {
		return "", 0, fmt.Errorf("batch %q is not a promote of environment %s (its batches start with %s)", batch, name, prefix)
	}
	back, err := s.eng.RevertPinnedPromote(ctx, batch)
	var sce *warehouse.SwitchConflictError
	if errors.As(err, &sce) {
		return "", 0, &ConflictError{Env: name, Op: "rollback", Conflicts: sce.Conflicts, Resolve: []string{"keep the newer versions, or roll those partitions back one by one (`strata rollback`)"}}
	}
	if errors.Is(err, warehouse.ErrNotFound) {
		return "", 0, fmt.Errorf("promote %s of %s is rolled back already", batch, name)
	}
	if err != nil {
		return "", 0, err
	}
	return batch, len(back), nil
}

// lastPromote is the environment's latest promote not rolled back, or nil.
func (s *Store) lastPromote(ctx context.Context, name string) (*Promoted, error) {
	var p Promoted
	err := s.wh.DB().QueryRowContext(ctx, `SELECT batch, max(switched_at), count(*) FROM _strata.switch_log
		WHERE starts_with(batch, ?) AND reverted_at IS NULL
		GROUP BY batch ORDER BY max(switched_at) DESC LIMIT 1`, "env_"+name+"_").Scan(&p.Batch, &p.At, &p.Partitions)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the last promote of %s: %w", name, err)
	}
	p.At = p.At.UTC()
	return &p, nil
}
