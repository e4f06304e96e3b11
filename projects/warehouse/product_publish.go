package warehouse

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// Output is one block's result for one partition, to be published as a new
// version of a product.
type Output struct {
	Product        string
	Partition      string    // partition key, e.g. "2024-03-10"
	PartitionStart time.Time // inclusive
	PartitionEnd   time.Time // exclusive
	Table          *sdk.Table
	// File, instead of Table, is an output a worker wrote into the lake's
	// data folder itself (lake_file_output.go): the commit registers it.
	File     *WrittenFile
	RunID    string
	CodeHash string
	// Upstream records what the run read: product -> partition -> version.
	Upstream map[string]map[string]int
	// Inputs are the upstream products in the order the block received
	// them (its parameters); nil when the caller does not know it.
	Inputs []string
	// Snapshot is the pipeline version (content hash of its files) that
	// computed the output; lineage shows it.
	Snapshot string
	// BasedOn is the current version the output was planned to replace (0:
	// the partition had none). With IfCurrent, Publish makes it current only
	// if that is still the current version (a compare-and-set); Stage
	// records it so that PromoteIfCurrent can check it at the promote.
	BasedOn   int
	IfCurrent bool
	// Pin, when set, keeps the new version from retention on behalf of this
	// owner (a staged backfill) until released (version_switch.go).
	Pin string
	// ReuseFor, a pin owner (an environment's), makes a staged output whose
	// rows equal the version that owner reads of the partition write
	// nothing: the version answered is that one, Reused
	// (version_identical.go).
	ReuseFor string
	// Hold keeps the new version from retention on behalf of this owner
	// when it is written not current: staged (an atomic backfill's, until
	// its promote) or kept aside by a conflict (until promote-anyway or
	// keep-newer). Retention counts versions, and a partition other runs
	// keep rewriting would otherwise drop the very version the owner is
	// still to promote, while its partition counts done (version_pins.go).
	Hold string
	// LateRetention lets the partition's retention wait for a later
	// transaction, with others (retention_late.go): a backfill's outputs,
	// whose end applies it (Sweep).
	LateRetention bool
	// State is the block's incremental state (sdk.State), stored with the
	// new version in the same transaction (version_state.go); nil: none.
	State map[string]string
	// StartState is the state the run started from (nil: none), kept with
	// State so that a replay of the version starts where its run did.
	StartState map[string]string
	// Pipeline is the pipeline whose run wrote it. When set, the product
	// must belong to it (the first publish records it as the owner) or
	// the publish is refused with a *NotOwnerError (product_owner.go).
	Pipeline string
}

// Version is a version written by Publish or Stage.
type Version struct {
	Product   string    `json:"product"`
	Partition string    `json:"partition"`
	Version   int       `json:"version"`
	Rows      int64     `json:"rows"`
	Table     string    `json:"table"` // storage table in the _strata schema
	Current   bool      `json:"current"`
	CreatedAt time.Time `json:"created_at"`
	// Reused: the output was not written, its rows being this version's,
	// which its ReuseFor owner already reads.
	Reused bool `json:"reused,omitempty"`
}

// Ref names the version.
func (v Version) Ref() VersionRef {
	return VersionRef{Product: v.Product, Partition: v.Partition, Version: v.Version}
}

// VersionRef names one version of one partition of a product.
type VersionRef struct {
	Product   string `json:"product"`
	Partition string `json:"partition"`
	Version   int    `json:"version"`
}

func (r VersionRef) String() string {
	return fmt.Sprintf("%s partition %s version %d", r.Product, r.Partition, r.Version)
}

// Publish writes every output as a new version and makes it current, all in
// one transaction: either every output of the run becomes visible (with
// retention applied) or, on any error, none does.
//
// When an output has IfCurrent and its partition's current version is no
// longer its BasedOn, newer work was published meanwhile: nothing of outs
// becomes current, every output is staged instead (so that it can still be
// promoted by someone who decides so), and the error is a *ConflictError.
func (w *Warehouse) Publish(ctx context.Context, outs []Output) ([]Version, error) {
	return w.writeOutputs(ctx, outs, true, nil)
}

// Stage writes every output as a new version without making it current, in
// one transaction. Promote switches staged versions in; Discard drops them.
// Retention still applies: staging more versions than it keeps drops the
// oldest ones that are not current.
func (w *Warehouse) Stage(ctx context.Context, outs []Output) ([]Version, error) {
	return w.writeOutputs(ctx, outs, false, nil)
}

// preparedOutput is a validated Output with its schema.
type preparedOutput struct {
	Output
	schema   []sdk.Field
	upstream string // JSON
	inputs   string // JSON list; "" when Inputs is nil (NULL in the catalog)
	hash     string // content_hash.go
	state    string // JSON; "" when State is nil (version_state.go)
	start    string // JSON of StartState; "null" when it is nil
}

func prepareOutputs(outs []Output) ([]preparedOutput, error) {
	if len(outs) == 0 {
		return nil, fmt.Errorf("nothing to publish: no outputs")
	}
	seen := map[[2]string]int{}
	prepared := make([]preparedOutput, len(outs))
	for i, o := range outs {
		where := fmt.Sprintf("output %d (%s, partition %s)", i, o.Product, o.Partition)
		if err := validateProduct(o.Product); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if err := validatePartition(o.Partition); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if o.PartitionEnd.Before(o.PartitionStart) {
			return nil, fmt.Errorf("%s: partition end %s is before its start %s", where, o.PartitionEnd.Format(time.RFC3339), o.PartitionStart.Format(time.RFC3339))
		}
		key := [2]string{o.Product, o.Partition}
		if j, dup := seen[key]; dup {
			return nil, fmt.Errorf("%s: output %d already publishes this partition", where, j)
		}
		seen[key] = i
		var schema []sdk.Field
		var hash string
		if o.File != nil {
			if o.Table != nil {
				return nil, fmt.Errorf("%s: both a table and a file", where)
			}
			schema, hash = o.File.Schema, o.File.Hash
			if len(schema) == 0 || hash == "" {
				return nil, fmt.Errorf("%s: file %s comes without its schema or content hash", where, o.File.Path)
			}
		} else {
			s, err := tableSchema(o.Table)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			schema, hash = s, contentHash(o.Table, s)
		}
		up := o.Upstream
		if up == nil {
			up = map[string]map[string]int{}
		}
		b, err := json.Marshal(up)
		if err != nil {
			return nil, fmt.Errorf("%s: upstream: %w", where, err)
		}
		inputs := ""
		if o.Inputs != nil {
			ib, err := json.Marshal(o.Inputs)
			if err != nil {
				return nil, fmt.Errorf("%s: inputs: %w", where, err)
			}
			inputs = string(ib)
		}
		state, err := encodeState(o.State)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		start, err := encodeState(o.StartState)
		if err != nil {
			return nil, fmt.Errorf("%s: start %w", where, err)
		}
		if start == "" {
			start = "null"
		}
		prepared[i] = preparedOutput{Output: o, schema: schema, upstream: string(b), inputs: inputs, hash: hash, state: state, start: start}
	}
	return prepared, nil
}

func (w *Warehouse) writeOutputs(ctx context.Context, outs []Output, makeCurrent bool, then Then) ([]Version, error) {
	p, err := newOutputsReq(ctx, outs, makeCurrent, then)
	if err != nil {
		return nil, err
	}
	w.writeAll([]*writeReq{p.req})
	return p.result()
}

// outputsReq is one publish (or stage) of several outputs as a grouped
// write: its transaction body and, once the group ended, what it answers.
type outputsReq struct {
	req         *writeReq
	makeCurrent bool
	versions    []Version
	conflict    *ConflictError
}

func newOutputsReq(ctx context.Context, outs []Output, makeCurrent bool, then Then) (*outputsReq, error) {
	prepared, err := prepareOutputs(outs)
	if err != nil {
		return nil, err
	}
	p := &outputsReq{makeCurrent: makeCurrent}
	p.req = &writeReq{ctx: ctx, fn: func(tx *writeTx) error {
		p.versions = make([]Version, 0, len(prepared))
		p.conflict = nil
		if err := tx.claimOwners(prepared); err != nil {
			return err
		}
		current := makeCurrent
		if makeCurrent {
			// The check reads the partitions' cached state: it costs no query.
			cs, err := tx.conflicts(prepared)
			if err != nil {
				return err
			}
			if len(cs) > 0 {
				p.conflict, current = &ConflictError{Conflicts: cs}, false
			}
		}
		var reused map[int]Version
		if !makeCurrent {
			var err error
			if reused, err = tx.identicalVersions(prepared); err != nil {
				return err
			}
			if err := pointLineageAt(prepared, reused); err != nil {
				return err
			}
		}
		created := time.Now().UTC().Truncate(time.Microsecond)
		for i := range prepared {
			o := &prepared[i]
			if v, ok := reused[i]; ok {
				p.versions = append(p.versions, v)
				continue
			}
			v, err := tx.writeOutput(o, current, created)
			if err != nil {
				return fmt.Errorf("output %d (%s, partition %s): %w", i, o.Product, o.Partition, err)
			}
			p.versions = append(p.versions, v)
		}
		if then != nil { // warehouse_commit_hook.go
			tx.rideAlong = append(tx.rideAlong, then(p.versions, conflictVersions(p.conflict, p.versions)))
		}
		return nil
	}}
	return p, nil
}

// result is what the publish answers once its transaction ended.
func (p *outputsReq) result() ([]Version, error) {
	if err := p.req.err; err != nil {
		verb := "publish"
		if !p.makeCurrent {
			verb = "stage"
		}
		return nil, fmt.Errorf("%s: %w", verb, err)
	}
	if c := p.conflict; c != nil {
		for i := range c.Conflicts {
			c.Conflicts[i].Version = p.versions[c.Conflicts[i].index].Version
		}
		return p.versions, c
	}
	return p.versions, nil
}

// writeOutput appends one output as a new version inside the transaction:
// its rows at once, its catalog row when the transaction flushes
// (catalog_pending.go).
func (tx *writeTx) writeOutput(o *preparedOutput, makeCurrent bool, created time.Time) (Version, error) {
	table, err := tx.ensureTable(o.Product, o.schema)
	if err != nil {
		return Version{}, err
	}
	st, err := tx.state(o.Product, o.Partition)
	if err != nil {
		return Version{}, err
	}
	version := st.last + 1
	basedOn := st.current
	if o.IfCurrent {
		basedOn = o.BasedOn
	}
	rows := int64(0)
	if o.File != nil {
		rows = o.File.Rows
		err = tx.addFile(table, o, version)
	} else {
		rows = int64(o.Table.Len())
		err = tx.insertTable(table, o.Partition, version, o.Table)
	}
	if err != nil {
		return Version{}, err
	}
	if err := tx.writeState(o, version); err != nil {
		return Version{}, err
	}
	// A published version is inserted current; only the version it replaces
	// needs its flag cleared (none for a new partition).
	tx.batch.inserts = append(tx.batch.inserts, pendingVersion{o: o, version: version, table: table, rows: rows, created: created, basedOn: basedOn})
	st.versions = append(st.versions, keptVersion{version: version, table: table, basedOn: basedOn})
	st.last = version
	if o.Pin != "" && o.ReuseFor == o.Pin {
		// An environment's pointer: the owner's older version of the
		// partition is no longer what it points at, and retention may
		// drop it (ChosenVersion reads the newest pin).
		tx.batch.pins = append(tx.batch.pins, pinRow{owner: o.Pin, ref: VersionRef{Product: o.Product, Partition: o.Partition, Version: version}, supersedes: true})
		tx.w.guarded[partKey{o.Product, o.Partition}] = true
	} else if o.Pin != "" {
		tx.pin(o.Pin, VersionRef{Product: o.Product, Partition: o.Partition, Version: version})
	} else if o.Hold != "" && !makeCurrent {
		tx.pin(o.Hold, VersionRef{Product: o.Product, Partition: o.Partition, Version: version})
	}
	if makeCurrent {
		tx.setCurrent(st, version)
	}
	if o.LateRetention {
		tx.retainLate(o.Product, o.Partition)
	} else if err := tx.retain(o.Product, o.Partition, st); err != nil {
		return Version{}, err
	}
	return Version{
		Product: o.Product, Partition: o.Partition, Version: version, Rows: rows,
		Table: table, Current: makeCurrent, CreatedAt: created,
	}, nil
}

// setCurrent points a partition at version (0: none). The flags are
// written when the transaction flushes: the old current version's cleared,
// the new one's set.
func (tx *writeTx) setCurrent(st *partState, version int) {
	st.current = version
}

// keptState is the state of r's partition, or the not-found error that lists
// the kept versions when r is not one of them.
func (tx *writeTx) keptState(r VersionRef) (*partState, error) {
	st, err := tx.state(r.Product, r.Partition)
	if err != nil {
		return nil, err
	}
	if _, ok := st.table(r.Version); !ok {
		return nil, tx.missingVersion(r)
	}
	return st, nil
}

// Promote makes the given (staged) versions current, all in one transaction,
// releases the pins release holds in their partitions ("" keeps them: the
// versions it held are current now or older than what is) and applies
// retention to them. It is how conflicts are promoted anyway.
func (w *Warehouse) Promote(ctx context.Context, refs []VersionRef, release string) error {
	if err := checkRefs(refs, true); err != nil {
		return fmt.Errorf("promote: %w", err)
	}
	err := w.write(ctx, func(tx *writeTx) error {
		parts := make([]partKey, len(refs))
		for i, r := range refs {
			parts[i] = partKey{r.Product, r.Partition}
		}
		if err := tx.releasePins(release, parts); err != nil {
			return err
		}
		for _, r := range refs {
			st, err := tx.keptState(r)
			if err != nil {
				return err
			}
			tx.setCurrent(st, r.Version)
			if err := tx.retain(r.Product, r.Partition, st); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("promote: %w", err)
	}
	return nil
}

// Discard deletes versions that are not current (a failed or cancelled
// atomic backfill's staged versions), in one transaction. Their numbers are
// not reused.
func (w *Warehouse) Discard(ctx context.Context, refs []VersionRef) error {
	if err := checkRefs(refs, false); err != nil {
		return fmt.Errorf("discard: %w", err)
	}
	err := w.write(ctx, func(tx *writeTx) error {
		for _, r := range refs {
			st, err := tx.keptState(r)
			if err != nil {
				return err
			}
			if st.current == r.Version {
				return fmt.Errorf("%s is current; roll the partition back to another version first", r)
			}
			if err := tx.deleteVersions(r.Product, r.Partition, st, []int{r.Version}); err != nil {
				return err
			}
			if err := tx.recordDiscarded(r.Product, r.Partition, st, r.Version); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("discard: %w", err)
	}
	return nil
}

// recordDiscarded remembers the highest discarded version number of a
// partition, so that it is not handed out again.
func (tx *writeTx) recordDiscarded(product, partition string, st *partState, version int) error {
	if st.hasDiscarded && st.discarded >= version {
		return nil
	}
	var err error
	if st.hasDiscarded {
		err = tx.exec(`UPDATE _strata.discarded SET max_version = ? WHERE product = ? AND partition = ?`, version, product, partition)
	} else {
		err = tx.exec(`INSERT INTO _strata.discarded VALUES (?, ?, ?)`, product, partition, version)
	}
	if err != nil {
		return fmt.Errorf("record discarded version %d of %s partition %s: %w", version, product, partition, err)
	}
	st.discarded, st.hasDiscarded = version, true
	return nil
}

// checkRefs refuses an empty list and duplicates: the same version twice,
// or (onePerPartition) two versions of one partition.
func checkRefs(refs []VersionRef, onePerPartition bool) error {
	if len(refs) == 0 {
		return fmt.Errorf("no versions given")
	}
	seen := map[VersionRef]bool{}
	for _, r := range refs {
		key := r
		if onePerPartition {
			key.Version = 0
		}
		if seen[key] {
			if onePerPartition {
				return fmt.Errorf("%s partition %s is named twice", r.Product, r.Partition)
			}
			return fmt.Errorf("%s is named twice", r)
		}
		seen[key] = true
	}
	return nil
}
