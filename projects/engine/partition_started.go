package engine

import (
	"fmt"
	"time"

	"github.com/stratahq/strata/projects/partitions"
)

// NotStartedError is a partition that has not begun on the pipeline's
// partition clock: it has no data to compute yet, and a run or backfill of
// one is almost always a typo in a year. Runs and backfills both refuse it,
// with the same words, and it is the client's to fix (the API answers 400).
type NotStartedError struct {
	Pipeline string
	Field    string // "partition" for a run, "to" for a backfill's range
	Key      string // the partition asked for
	Current  string // the partition under way at now
	Latest   string // the latest complete partition at now
}

func (e *NotStartedError) Error() string {
	return fmt.Sprintf("pipeline %s: %s: partition %s has not started yet (the current partition is %s, the latest complete one %s)",
		e.Pipeline, e.Field, e.Key, e.Current, e.Latest)
}

// checkStarted refuses p when it starts after now on spec's clock.
func checkStarted(pipeline, field string, spec partitions.Spec, p partitions.Partition, now time.Time) error {
	if !p.Start.After(now) {
		return nil
	}
	return &NotStartedError{Pipeline: pipeline, Field: field, Key: p.Key, Current: spec.At(now).Key, Latest: spec.Latest(now).Key}
}

// CheckStarted reports, as a *NotStartedError, whether the partition key of
// pipeline id has not started at now; the server asks before it answers
// 202 for a run that would only fail in the background.
func (e *Engine) CheckStarted(id, key string, now time.Time) error {
	pl, err := e.Pipeline(id)
	if err != nil {
		return err
	}
	spec, err := SpecOf(pl.Partitions)
	if err != nil {
		return err
	}
	p, err := spec.Parse(key)
	if err != nil {
		return fmt.Errorf("pipeline %s: %w", pl.ID, err)
	}
	return checkStarted(pl.ID, "partition", spec, p, now)
}
