package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// Catalog lookups shared by reads and writes. The "missing" helpers build the
// not-found errors: they say what was asked for and list what exists, and
// wrap ErrNotFound.

// lookupVersion returns the storage table and row count of a version.
func lookupVersion(ctx context.Context, q querier, r VersionRef) (string, int64, error) {
	var table string
	var rows int64
	err := q.QueryRowContext(ctx, `SELECT storage_table, row_count FROM _strata.versions WHERE product = ? AND partition = ? AND version = ?`,
		r.Product, r.Partition, r.Version).Scan(&table, &rows)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, missingVersion(ctx, q, r)
	}
	if err != nil {
		return "", 0, fmt.Errorf("look up %s: %w", r, err)
	}
	return table, rows, nil
}

// currentVersion is the current version of a partition, 0 when it has none.
func currentVersion(ctx context.Context, q querier, product, partition string) (int, error) {
	var v int
	err := q.QueryRowContext(ctx, `SELECT version FROM _strata.versions WHERE product = ? AND partition = ? AND is_current`, product, partition).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("current version of %s partition %s: %w", product, partition, err)
	}
	return v, nil
}

// missingProduct returns nil when the product has a version, else an error
// listing the products.
func missingProduct(ctx context.Context, q querier, product string) error {
	rows, err := q.QueryContext(ctx, `SELECT DISTINCT product FROM _strata.versions ORDER BY product`)
	if err != nil {
		return fmt.Errorf("list products: %w", err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return err
		}
		if n == product {
			return nil
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("unknown product %q (the warehouse has no products yet): %w", product, ErrNotFound)
	}
	return fmt.Errorf("unknown product %q (products: %s): %w", product, abbreviate(names, 20), ErrNotFound)
}

// missingPartition returns nil when the partition has a version, else an
// error listing the product's partitions.
func missingPartition(ctx context.Context, q querier, product, partition string) error {
	if err := missingProduct(ctx, q, product); err != nil {
		return err
	}
	rows, err := q.QueryContext(ctx, `SELECT partition FROM _strata.versions WHERE product = ?
		GROUP BY partition ORDER BY min(partition_start), partition`, product)
	if err != nil {
		return fmt.Errorf("list partitions of %s: %w", product, err)
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return err
		}
		if k == partition {
			return nil
		}
		keys = append(keys, k)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return fmt.Errorf("product %q has no partition %s (%d partitions: %s): %w", product, partition, len(keys), abbreviate(keys, 6), ErrNotFound)
}

// partitionState lists the kept versions of a partition, ascending, with
// its current version (0: none) and the last number handed out (the newest
// kept or discarded one).
func partitionState(ctx context.Context, q querier, product, partition string) (versions []int, current, last int, err error) {
	rows, err := q.QueryContext(ctx, `SELECT version FROM _strata.versions WHERE product = ? AND partition = ? ORDER BY version`, product, partition)
	if err != nil {
		return nil, 0, 0, err
	}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return nil, 0, 0, err
		}
		versions = append(versions, v)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, 0, err
	}
	if current, err = currentVersion(ctx, q, product, partition); err != nil {
		return nil, 0, 0, err
	}
	err = q.QueryRowContext(ctx, `SELECT max_version FROM _strata.discarded WHERE product = ? AND partition = ?`, product, partition).Scan(&last)
	if errors.Is(err, sql.ErrNoRows) {
		err = nil
	}
	if n := len(versions); n > 0 {
		last = max(last, versions[n-1])
	}
	return versions, current, last, err
}

// missingVersion explains why a version cannot be found: unknown product or
// partition, removed by retention (or discarded), or never written.
func missingVersion(ctx context.Context, q querier, r VersionRef) error {
	if err := missingPartition(ctx, q, r.Product, r.Partition); err != nil {
		return err
	}
	versions, current, last, err := partitionState(ctx, q, r.Product, r.Partition)
	if err != nil {
		return fmt.Errorf("look up %s: %w", r, err)
	}
	state := fmt.Sprintf("versions: %s; current %s", intList(versions), currentString(current))
	if r.Version >= 1 && r.Version <= last {
		return fmt.Errorf("product %q has no version %d of partition %s any more: it was removed by retention or discarded (%s): %w",
			r.Product, r.Version, r.Partition, state, ErrNotFound)
	}
	return fmt.Errorf("product %q has no version %d of partition %s (%s): %w", r.Product, r.Version, r.Partition, state, ErrNotFound)
}

func currentString(v int) string {
	if v == 0 {
		return "none"
	}
	return fmt.Sprint(v)
}

// abbreviate joins names, keeping the first and last few of a long list.
func abbreviate(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	half := max / 2
	return strings.Join(names[:half], ", ") + ", …, " + strings.Join(names[len(names)-half:], ", ")
}

func intList(vs []int) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ", ")
}
