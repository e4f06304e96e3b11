package sdk

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// The helpers below write a Table into a table of a SQL database through
// database/sql, with the driver the block chose (pgx's stdlib, lib/pq, or
// DuckDB): the SDK needs no driver of its own. The statements are
// Postgres's: $n placeholders, INSERT … ON CONFLICT (key) DO UPDATE.
//
// Both are idempotent, so an Export block that is run again under the same
// ctx.ExportKey (an export that failed midway) leaves one copy: Upsert by
// the rows' key, ReplacePartition by replacing a partition's rows.

// maxParams bounds the placeholders of one statement (Postgres allows 65535).
const maxParams = 65535

// WriteOptions tunes Upsert and ReplacePartition; the zero value is fine.
type WriteOptions struct {
	// BatchRows is the most rows one INSERT carries (default 1000, fewer
	// when the table has many columns).
	BatchRows int
}

// Upsert writes t's rows into table (optionally "schema.table") in one
// transaction: a row whose key columns match an existing row replaces its
// other columns. The table must have a primary key or unique constraint on
// exactly the key columns. It returns the rows written.
func Upsert(ctx context.Context, db *sql.DB, table string, key []string, t *Table, opt WriteOptions) (int64, error) {
	if len(key) == 0 {
		return 0, fmt.Errorf("upsert into %s: no key columns (name the columns of its primary key)", table)
	}
	for _, k := range key {
		if t.Column(k) == nil {
			return 0, fmt.Errorf("upsert into %s: key column %q is not a column of the table (%s)", table, k, t.columnList())
		}
	}
	return writeTx(ctx, db, "upsert into "+table, func(tx *sql.Tx) (int64, error) {
		return insertRows(ctx, tx, table, t, opt, UpsertClause(t, key))
	})
}

// ReplacePartition replaces, in one transaction, the rows of table whose
// column equals value (a partition's key, typically ctx.Partition.Key) by
// t's rows. t should carry column with that value.
func ReplacePartition(ctx context.Context, db *sql.DB, table, column, value string, t *Table, opt WriteOptions) (int64, error) {
	return writeTx(ctx, db, "replace partition "+value+" of "+table, func(tx *sql.Tx) (int64, error) {
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+QuoteTable(table)+" WHERE "+QuoteIdent(column)+" = $1", value); err != nil {
			return 0, fmt.Errorf("delete the partition's rows: %w", err)
		}
		return insertRows(ctx, tx, table, t, opt, "")
	})
}

func writeTx(ctx context.Context, db *sql.DB, what string, fn func(*sql.Tx) (int64, error)) (int64, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	n, err := fn(tx)
	if err != nil {
		_ = tx.Rollback()
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("%s: commit: %w", what, err)
	}
	return n, nil
}

// InsertSQL is the statement that inserts rows rows of t's columns into
// table, with $n placeholders, followed by suffix (an ON CONFLICT clause).
func InsertSQL(table string, t *Table, rows int, suffix string) string {
	var b strings.Builder
	b.WriteString("INSERT INTO ")
	b.WriteString(QuoteTable(table))
	b.WriteString(" (")
	cols := t.Columns()
	for i, c := range cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(QuoteIdent(c.Name))
	}
	b.WriteString(") VALUES ")
	n := 1
	for r := 0; r < rows; r++ {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for i := range cols {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			n++
		}
		b.WriteByte(')')
	}
	if suffix != "" {
		b.WriteByte(' ')
		b.WriteString(suffix)
	}
	return b.String()
}

// UpsertClause is ON CONFLICT (key) DO UPDATE SET every other column (DO
// NOTHING when every column is a key column); InsertSQL takes it as suffix.
func UpsertClause(t *Table, key []string) string {
	isKey := map[string]bool{}
	quoted := make([]string, len(key))
	for i, k := range key {
		isKey[k] = true
		quoted[i] = QuoteIdent(k)
	}
	var sets []string
	for _, c := range t.Columns() {
		if !isKey[c.Name] {
			sets = append(sets, QuoteIdent(c.Name)+" = EXCLUDED."+QuoteIdent(c.Name))
		}
	}
	s := "ON CONFLICT (" + strings.Join(quoted, ", ") + ") DO "
	if len(sets) == 0 {
		return s + "NOTHING"
	}
	return s + "UPDATE SET " + strings.Join(sets, ", ")
}

func insertRows(ctx context.Context, tx *sql.Tx, table string, t *Table, opt WriteOptions, suffix string) (int64, error) {
	if err := t.Validate(); err != nil {
		return 0, err
	}
	cols := t.Columns()
	if len(cols) == 0 {
		return 0, fmt.Errorf("the table has no columns")
	}
	per := opt.BatchRows
	if per <= 0 {
		per = 1000
	}
	per = max(1, min(per, maxParams/len(cols)))
	var stmt *sql.Stmt
	defer func() {
		if stmt != nil {
			stmt.Close()
		}
	}()
	args := make([]any, 0, per*len(cols))
	n := t.Len()
	for start := 0; start < n; start += per {
		end := min(n, start+per)
		args = args[:0]
		for r := start; r < end; r++ {
			for _, c := range cols {
				args = append(args, sqlArg(c, r))
			}
		}
		q := InsertSQL(table, t, end-start, suffix)
		var err error
		if end-start == per { // full batches share one prepared statement
			if stmt == nil {
				if stmt, err = tx.PrepareContext(ctx, q); err != nil {
					return int64(start), err
				}
			}
			_, err = stmt.ExecContext(ctx, args...)
		} else {
			_, err = tx.ExecContext(ctx, q, args...)
		}
		if err != nil {
			return int64(start), fmt.Errorf("rows %d..%d: %w", start, end-1, err)
		}
	}
	return int64(n), nil
}

// sqlArg is row r of c as a driver argument: decimals and int128 as their
// exact text (the database parses it into its NUMERIC), dates as dates.
func sqlArg(c *Column, r int) any {
	if c.IsNull(r) {
		return nil
	}
	switch c.Type {
	case TypeInt64:
		return c.ints[r]
	case TypeFloat64:
		return c.floats[r]
	case TypeBool:
		return c.bools[r]
	case TypeTime, TypeTimestamp:
		return c.times[r]
	case TypeDate:
		return c.times[r].Format(time.DateOnly)
	case TypeUint64:
		if v := c.uints[r]; v > 1<<63-1 {
			return strconv.FormatUint(v, 10)
		}
		return int64(c.uints[r])
	case TypeInt128:
		if b := c.bigs[r]; b != nil {
			return new(big.Int).Set(b).String()
		}
		return nil
	}
	return c.strings[r] // string, decimal
}

// QuoteIdent quotes a SQL identifier.
func QuoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// QuoteTable quotes a table name, "schema.table" as two identifiers.
func QuoteTable(s string) string {
	parts := strings.Split(s, ".")
	for i, p := range parts {
		parts[i] = QuoteIdent(p)
	}
	return strings.Join(parts, ".")
}
