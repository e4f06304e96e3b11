package warehouse

import (
	"context"
	"slices"

	"github.com/stratahq/strata/projects/extensions"
)

// UseExtensions sets the DuckDB extensions SQL blocks may use: the
// project's `extensions:`, again after each reload of strata.yaml. Those
// not loaded yet are LOADed before the next SQL block runs, which fails
// with an *extensions.MissingError when one is not installed. DuckDB
// cannot unload one, so a name dropped from the list stays loaded until
// the warehouse is reopened.
func (w *Warehouse) UseExtensions(names []string) {
	w.emu.Lock()
	w.extWant = slices.Clone(names)
	w.emu.Unlock()
}

// loadExtensions LOADs the wanted extensions not loaded yet.
func (w *Warehouse) loadExtensions(ctx context.Context) error {
	w.emu.Lock()
	defer w.emu.Unlock()
	var todo []string
	for _, n := range w.extWant {
		if !w.extLoaded[n] {
			todo = append(todo, n)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	if err := extensions.Load(ctx, w.db, todo); err != nil {
		return err
	}
	for _, n := range todo {
		w.extLoaded[n] = true
	}
	return nil
}
