package warehouse

// Commits is how many write transactions this Warehouse has committed since
// Open (each grouped transaction counts once): the figure benchmarks and
// tests divide by the partitions a backfill ran, the writes per partition
// being most of a small publish's cost.
func (w *Warehouse) Commits() int64 { return w.commits.Load() }

// CatalogChanges counts the committed write transactions that changed
// rows of the version catalog (inserted, flagged current or deleted
// versions) since Open, counted once committed: a count that has not
// moved since a read means this process has not changed the catalog since.
func (w *Warehouse) CatalogChanges() int64 { return w.catalogChanges.Load() }

// CostlyCommits says whether a commit costs far more than the rows it
// carries: true on a DuckLake (tens of ms of CPU per transaction, whatever
// it writes), so callers that can group their writes should group more.
func (w *Warehouse) CostlyCommits() bool {
	_, ok := w.backend.(*lakeBackend)
	return ok
}
