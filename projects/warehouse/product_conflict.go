package warehouse

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Conflict is a partition whose current version changed after a write was
// planned against it: publishing or promoting there would overwrite newer
// work.
type Conflict struct {
	Product   string `json:"product"`
	Partition string `json:"partition"`
	Version   int    `json:"version"`  // the version that was not made current (kept, staged)
	BasedOn   int    `json:"based_on"` // the current version it was planned against (0: none)
	Current   int    `json:"current"`  // the current version now, newer work (0: none)
	index     int    // of the output, inside writeOutputs
}

func (c Conflict) String() string {
	return fmt.Sprintf("%s partition %s: version %d was planned against %s but %s is current now",
		c.Product, c.Partition, c.Version, versionName(c.BasedOn), versionName(c.Current))
}

func versionName(v int) string {
	switch {
	case v == 0:
		return "no version"
	case v < 0:
		return "an earlier version"
	}
	return fmt.Sprintf("v%d", v)
}

// ConflictError is what a compare-and-set publish or promote answers when
// some partition changed: nothing it names was made current.
type ConflictError struct{ Conflicts []Conflict }

func (e *ConflictError) Error() string {
	parts := make([]string, len(e.Conflicts))
	for i, c := range e.Conflicts {
		parts[i] = c.String()
	}
	return "newer work was published meanwhile: " + strings.Join(parts, "; ")
}

// AsConflict returns the conflicts of err, nil when it is no conflict.
func AsConflict(err error) []Conflict {
	var ce *ConflictError
	if errors.As(err, &ce) {
		return ce.Conflicts
	}
	return nil
}

// conflicts checks the IfCurrent outputs against their partitions' state.
func (tx *writeTx) conflicts(outs []preparedOutput) ([]Conflict, error) {
	var out []Conflict
	for i, o := range outs {
		if !o.IfCurrent {
			continue
		}
		st, err := tx.state(o.Product, o.Partition)
		if err != nil {
			return nil, err
		}
		if st.current != o.BasedOn {
			out = append(out, Conflict{Product: o.Product, Partition: o.Partition, BasedOn: o.BasedOn, Current: st.current, index: i})
		}
	}
	return out, nil
}

// PromoteIfCurrent makes staged versions current, all in one transaction,
// provided each partition's current version is still the one the version
// was planned against (its based_on). If any is not, nothing is promoted
// and the error is a *ConflictError listing every such partition: the
// caller decides what to promote without them.
func (w *Warehouse) PromoteIfCurrent(ctx context.Context, refs []VersionRef) error {
	if err := checkRefs(refs, true); err != nil {
		return fmt.Errorf("promote: %w", err)
	}
	var conflict *ConflictError
	err := w.write(ctx, func(tx *writeTx) error {
		conflict = nil
		states := make([]*partState, len(refs))
		var cs []Conflict
		for i, r := range refs {
			st, err := tx.keptState(r)
			if err != nil {
				return err
			}
			states[i] = st
			kv, _ := st.kept(r.Version)
			if st.current != kv.basedOn && st.current != r.Version {
				cs = append(cs, Conflict{Product: r.Product, Partition: r.Partition, Version: r.Version, BasedOn: kv.basedOn, Current: st.current})
			}
		}
		if len(cs) > 0 {
			conflict = &ConflictError{Conflicts: cs}
			return conflict
		}
		for i, r := range refs {
			tx.setCurrent(states[i], r.Version)
			if err := tx.retain(r.Product, r.Partition, states[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if conflict != nil {
		return conflict
	}
	if err != nil {
		return fmt.Errorf("promote: %w", err)
	}
	return nil
}
