package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// DiffOptions say how rows are paired and how many changed rows to return.
type DiffOptions struct {
	// Keys are the product's key columns: rows with the same key are the
	// same row, changed when another value differs. Without keys a row is
	// its whole content (a changed row shows as one removed and one added).
	Keys []string
	// Rows is how many changed rows to return (first by partition and key);
	// 0 returns only counts.
	Rows int
}

// PartitionDiff compares two versions of one partition of a product.
type PartitionDiff struct {
	Product    string `json:"product"`
	Partition  string `json:"partition"`
	From       int    `json:"from_version"` // 0: the partition had no version (every row is added)
	To         int    `json:"to_version"`
	RowsBefore int64  `json:"rows_before"`
	RowsAfter  int64  `json:"rows_after"`
	// Unchanged: the content hashes recorded at publish are equal, so the
	// rows were not read at all.
	Unchanged bool           `json:"unchanged"`
	Schema    SchemaChange   `json:"schema"`
	Columns   []ColumnChange `json:"columns"`
	Keys      []string       `json:"keys"`               // key columns used; empty: whole rows
	KeyNote   string         `json:"key_note,omitempty"` // why declared keys were not used
	Counts    RowCounts      `json:"counts"`
	// RowColumns names the values of each RowChange's Old and New.
	RowColumns []string    `json:"row_columns"`
	Rows       []RowChange `json:"rows"`
}

// DiffVersions compares two kept versions of a partition (from may be 0:
// nothing, so the diff is the whole of to). It reads one snapshot; nothing
// but summaries and the first opt.Rows changed rows leaves DuckDB.
func (w *Warehouse) DiffVersions(ctx context.Context, product, partition string, from, to int, opt DiffOptions) (*PartitionDiff, error) {
	var d *PartitionDiff
	err := w.readTx(ctx, func(conn *sql.Conn) error {
		var err error
		d, err = diffPartition(ctx, conn, product, partition, from, to, opt)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("diff %s partition %s version %d to %d: %w", product, partition, from, to, err)
	}
	return d, nil
}

// DiffCurrent compares a (staged) version with the partition's current
// version, or with nothing when the partition has none.
func (w *Warehouse) DiffCurrent(ctx context.Context, product, partition string, version int, opt DiffOptions) (*PartitionDiff, error) {
	var d *PartitionDiff
	err := w.readTx(ctx, func(conn *sql.Conn) error {
		cur, err := currentVersion(ctx, conn, product, partition)
		if err != nil {
			return err
		}
		d, err = diffPartition(ctx, conn, product, partition, cur, version, opt)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("diff %s partition %s version %d against the current one: %w", product, partition, version, err)
	}
	return d, nil
}

func diffPartition(ctx context.Context, q querier, product, partition string, from, to int, opt DiffOptions) (*PartitionDiff, error) {
	if from < 0 || to < 1 {
		return nil, fmt.Errorf("versions %d and %d: want a version of 1 or more to compare (and 0 or more to compare with)", from, to)
	}
	refs := []partVersion{{partition, to}}
	if from > 0 {
		refs = append(refs, partVersion{partition, from})
	}
	metas, err := versionMetas(ctx, q, product, refs)
	if err != nil {
		return nil, err
	}
	for _, r := range refs {
		if metas[r] == nil {
			return nil, missingVersion(ctx, q, VersionRef{Product: product, Partition: partition, Version: r.version})
		}
	}
	var before, after side
	after.metas = []*versionMeta{metas[refs[0]]}
	if from > 0 {
		before.metas = []*versionMeta{metas[refs[1]]}
	}
	d := &PartitionDiff{Product: product, Partition: partition, From: from, To: to, RowsAfter: after.metas[0].rows,
		Keys: []string{}, RowColumns: []string{}, Rows: []RowChange{}}
	if from > 0 {
		d.RowsBefore = before.metas[0].rows
	}
	bcols, acols := schemaOf(before), schemaOf(after)
	d.Schema = schemaChange(bcols, acols)
	if from > 0 && sameContent(before.metas[0], after.metas[0]) {
		d.Unchanged = true
		d.Columns = []ColumnChange{}
		return d, nil
	}
	if err := compareSides(ctx, q, d, before, after, partition, opt); err != nil {
		return nil, err
	}
	// Content hashes missing (older files) or from another DuckDB build: the
	// rows decide.
	d.Unchanged = from > 0 && d.Counts.Total() == 0 && d.Schema.Empty()
	return d, nil
}

// compareSides fills d with what differs between before and after of one
// partition: the column statistics, the key the rows are matched on, and
// the changed rows (opt.Rows of them) or, with none asked, their counts.
// A stored version against another and a stored version against a table
// computed in memory (a replay) compare the same way.
func compareSides(ctx context.Context, q querier, d *PartitionDiff, before, after side, partition string, opt DiffOptions) error {
	rd, note := planRowDiff(before, after, opt.Keys)
	var dups [2]int64
	var err error
	if d.Columns, dups, err = columnChanges(ctx, q, before, after, rd.keys, false); err != nil {
		return err
	}
	rd, note = rd.checkUnique(dups, note)
	d.KeyNote = note
	d.Keys = append(d.Keys, rd.keys...)
	d.RowColumns = colNames(rd.cols)
	if opt.Rows > 0 {
		rows, counts, err := changedRows(ctx, q, rd, opt.Rows)
		if err != nil {
			return err
		}
		d.Rows, d.Counts = append(d.Rows, rows...), counts
	} else {
		counts, err := countRows(ctx, q, rd)
		if err != nil {
			return err
		}
		if c := counts[partition]; c != nil {
			d.Counts = *c
		}
	}
	return nil
}

// planRowDiff builds the row comparison of two sides: keyed when the keys
// exist on both sides, else whole rows, with a note saying why.
func planRowDiff(before, after side, declared []string) (rowDiff, string) {
	cols := diffColumns(before, after)
	keys, note := resolveKeys(declared, schemaOf(before), schemaOf(after))
	return rowDiff{cols: cols, keys: keys, before: sideSQL(before, cols), after: sideSQL(after, cols)}, note
}

// checkUnique falls back to whole rows when a key repeats within a
// partition on either side (dups from summarize): such a key cannot pair
// rows.
func (d rowDiff) checkUnique(dups [2]int64, note string) (rowDiff, string) {
	if len(d.keys) == 0 || (dups[0] == 0 && dups[1] == 0) {
		return d, note
	}
	note = fmt.Sprintf("key (%s) is not unique (%d duplicate rows before, %d after): rows are compared whole", identList("", d.keys), dups[0], dups[1])
	d.keys = nil
	return d, note
}

// VersionPair names the two versions of one partition a set diff compares:
// From (0: none, a new partition) and To.
type VersionPair struct {
	Partition string `json:"partition"`
	From      int    `json:"from_version"`
	To        int    `json:"to_version"`
}

// PartitionChange is one partition's line in a set diff.
type PartitionChange struct {
	Partition  string    `json:"partition"`
	Start      time.Time `json:"start"`
	From       int       `json:"from_version"`
	To         int       `json:"to_version"`
	Status     string    `json:"status"` // new, changed or unchanged
	RowsBefore int64     `json:"rows_before"`
	RowsAfter  int64     `json:"rows_after"`
	Counts     RowCounts `json:"counts"`
	SchemaDiff bool      `json:"schema_changed,omitempty"`
}

// Partition statuses of a set diff.
const (
	PartitionNew       = "new"
	PartitionChanged   = "changed"
	PartitionUnchanged = "unchanged"
)

// ProductDiff compares many partitions of a product at once: what a staged
// backfill would change in it.
type ProductDiff struct {
	Product    string            `json:"product"`
	Changed    int               `json:"changed"`
	Unchanged  int               `json:"unchanged"`
	New        int               `json:"new"`
	RowsBefore int64             `json:"rows_before"`
	RowsAfter  int64             `json:"rows_after"`
	Counts     RowCounts         `json:"counts"`
	Schema     SchemaChange      `json:"schema"`
	Columns    []ColumnChange    `json:"columns"` // over the partitions that differ
	Keys       []string          `json:"keys"`
	KeyNote    string            `json:"key_note,omitempty"`
	Partitions []PartitionChange `json:"partitions"` // in the order given
}

// DiffSet compares the given version pairs of a product in one snapshot.
// Partitions whose content hashes match are counted unchanged from the
// catalog; the others are compared in DuckDB with one grouped query per
// side (summaries) and one for the row counts of every partition.
func (w *Warehouse) DiffSet(ctx context.Context, product string, pairs []VersionPair, opt DiffOptions) (*ProductDiff, error) {
	var d *ProductDiff
	err := w.readTx(ctx, func(conn *sql.Conn) error {
		var err error
		d, err = diffSet(ctx, conn, product, pairs, opt)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("diff %s (%d partitions): %w", product, len(pairs), err)
	}
	return d, nil
}

func diffSet(ctx context.Context, q querier, product string, pairs []VersionPair, opt DiffOptions) (*ProductDiff, error) {
	refs := make([]partVersion, 0, 2*len(pairs))
	for _, p := range pairs {
		refs = append(refs, partVersion{p.Partition, p.To})
		if p.From > 0 {
			refs = append(refs, partVersion{p.Partition, p.From})
		}
	}
	metas, err := versionMetas(ctx, q, product, refs)
	if err != nil {
		return nil, err
	}
	d := &ProductDiff{Product: product, Keys: []string{}, Columns: []ColumnChange{}, Partitions: make([]PartitionChange, 0, len(pairs))}
	whole, err := versionCounts(ctx, q, product)
	if err != nil {
		return nil, err
	}
	before, after := side{whole: whole, product: product}, side{whole: whole, product: product} // the partitions that differ
	var allBefore, allAfter side                                                                // every partition, for the schema change
	for _, p := range pairs {
		to := metas[partVersion{p.Partition, p.To}]
		if to == nil {
			return nil, missingVersion(ctx, q, VersionRef{Product: product, Partition: p.Partition, Version: p.To})
		}
		pc := PartitionChange{Partition: p.Partition, Start: to.start.UTC(), From: p.From, To: p.To, RowsAfter: to.rows, Status: PartitionNew}
		allAfter.metas = append(allAfter.metas, to)
		var from *versionMeta
		if p.From > 0 {
			if from = metas[partVersion{p.Partition, p.From}]; from == nil {
				return nil, missingVersion(ctx, q, VersionRef{Product: product, Partition: p.Partition, Version: p.From})
			}
			pc.RowsBefore = from.rows
			allBefore.metas = append(allBefore.metas, from)
			pc.SchemaDiff = encodeSchema(from.schema) != encodeSchema(to.schema)
			pc.Status = PartitionChanged
			if sameContent(from, to) {
				pc.Status = PartitionUnchanged
			}
		}
		if pc.Status != PartitionUnchanged {
			after.metas = append(after.metas, to)
			if from != nil {
				before.metas = append(before.metas, from)
			}
		}
		d.RowsBefore += pc.RowsBefore
		d.RowsAfter += pc.RowsAfter
		d.Partitions = append(d.Partitions, pc)
	}
	d.Schema = schemaChange(schemaOf(allBefore), schemaOf(allAfter))
	if len(after.metas) > 0 {
		rd, note := planRowDiff(before, after, opt.Keys)
		// The row counts tell whether a key pairs rows more than once
		// (countHashed): the summaries need not count distinct keys too.
		if d.Columns, _, err = columnChanges(ctx, q, before, after, nil, true); err != nil {
			return nil, err
		}
		var sides [2]int64
		for _, m := range before.metas {
			sides[0] += m.rows
		}
		for _, m := range after.metas {
			sides[1] += m.rows
		}
		counts, dups, err := countHashed(ctx, q, rd, sides)
		if err != nil {
			return nil, err
		}
		if len(rd.keys) > 0 && dups != [2]int64{} {
			rd, note = rd.checkUnique(dups, note)
			if counts, _, err = countHashed(ctx, q, rd, sides); err != nil {
				return nil, err
			}
		}
		d.KeyNote = note
		d.Keys = append(d.Keys, rd.keys...)
		for i := range d.Partitions {
			pc := &d.Partitions[i]
			if c := counts[pc.Partition]; c != nil {
				pc.Counts = *c
			}
			// Hashes unknown or from another build: the rows decide.
			if pc.Status == PartitionChanged && pc.Counts.Total() == 0 && !pc.SchemaDiff {
				pc.Status = PartitionUnchanged
			}
		}
	}
	for _, pc := range d.Partitions {
		d.Counts.Changed += pc.Counts.Changed
		d.Counts.Added += pc.Counts.Added
		d.Counts.Removed += pc.Counts.Removed
		switch pc.Status {
		case PartitionNew:
			d.New++
		case PartitionChanged:
			d.Changed++
		default:
			d.Unchanged++
		}
	}
	return d, nil
}
