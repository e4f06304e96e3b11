package engine

import (
	"fmt"

	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
)

// loadKeySets fills the key sets of spec's dynamic dimensions.
func (e *Engine) loadKeySets(pl *project.Pipeline, spec partitions.Spec) (partitions.Spec, error) {
	for _, d := range spec.Dims {
		if d.Kind == partitions.Dynamic && !d.Loaded() {
			return spec, fmt.Errorf("pipeline %s: dynamic dimension %s is not supported yet", pl.ID, d.Name)
		}
	}
	return spec, nil
}
