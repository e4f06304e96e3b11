package warehouse

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"regexp"
	"strings"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/stratahq/strata/blocks/sdk"
)

// RunSQL runs a SQL block over tables in memory: the inputs become
// temporary tables named by upstream block id (they shadow product views of
// the same name), the partition's bounds bind to $partition_key,
// $partition_start and $partition_end where the query uses them, and the
// result comes back as a table. It runs on a connection of its own,
// concurrently with other reads; it never writes the database.
func (w *Warehouse) RunSQL(ctx context.Context, query string, inputs map[string]*sdk.Table, params map[string]any) (*sdk.Table, error) {
	ins := make([]SQLInput, 0, len(inputs))
	for n, t := range inputs {
		ins = append(ins, SQLInput{Name: n, Table: t})
	}
	t, _, err := w.RunSQLInputs(ctx, query, ins, params)
	return t, err
}

// SQLInput is one relation of a SQL block, named by its upstream block's id:
// a table in memory (an upstream that ran in the same run), or, when Read is
// set, those versions of one product's partitions, read in place from the
// storage tables rather than copied into Go and back.
type SQLInput struct {
	Name  string
	Table *sdk.Table
	Read  []VersionRef // in read order, all of one product
}

// RunSQLInputs is RunSQL over inputs of either kind. It returns, per input
// read in place, the versions the query saw: those asked for, except that a
// version retention removed since the caller chose it is replaced by its
// partition's current one (the caller records what was read, not what it
// asked for). With an input read in place, the catalog lookup, the rows and
// the query share one read-only transaction, so what it returns is what the
// query read; inputs all in memory need no snapshot, and their temporary
// tables are dropped instead (one statement fewer than BEGIN and ROLLBACK).
func (w *Warehouse) RunSQLInputs(ctx context.Context, query string, inputs []SQLInput, params map[string]any) (*sdk.Table, [][]VersionRef, error) {
	t, read, _, err := w.RunSQLBlock(ctx, query, inputs, params)
	return t, read, err
}

// RunSQLBlock is RunSQLInputs that also returns the versions of the
// products the query reads by name rather than as inputs (one list per
// product, every current partition of it, in the query's snapshot): what
// the block computed from beside its upstreams (sql_block_reads.go).
func (w *Warehouse) RunSQLBlock(ctx context.Context, query string, inputs []SQLInput, params map[string]any) (*sdk.Table, [][]VersionRef, [][]VersionRef, error) {
	return w.RunSQLBlockIn(ctx, "", query, inputs, params)
}

// RunSQLBlockIn is RunSQLBlock whose reads by name prefer the versions pin
// owner pinned (an environment's: Selection.PreferPinned), where it pinned
// any; "" reads the current ones.
func (w *Warehouse) RunSQLBlockIn(ctx context.Context, pinned, query string, inputs []SQLInput, params map[string]any) (*sdk.Table, [][]VersionRef, [][]VersionRef, error) {
	attaches, query, err := splitSQLBlock(query)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := checkReadOnly(query); err != nil {
		return nil, nil, nil, fmt.Errorf("a SQL block is one SELECT (after ATTACH statements): %w", err)
	}
	if err := w.loadExtensions(ctx); err != nil {
		return nil, nil, nil, err
	}
	texts := []string{query}
	for _, a := range attaches {
		texts = append(texts, a.target, a.options)
	}
	if err := w.useS3Secrets(ctx, texts...); err != nil {
		return nil, nil, nil, err
	}
	release, err := w.attachAll(ctx, attaches)
	if err != nil {
		return nil, nil, nil, err
	}
	defer release()
	t, read, byName, err := w.runSQLInputs(ctx, pinned, query, inputs, params)
	return t, read, byName, maskError(w.masks(), err)
}

func (w *Warehouse) runSQLInputs(ctx context.Context, pinned, query string, inputs []SQLInput, params map[string]any) (*sdk.Table, [][]VersionRef, [][]VersionRef, error) {
	var args []any
	for _, name := range usedParams(query) {
		v, ok := params[name]
		if !ok {
			return nil, nil, nil, fmt.Errorf("unknown parameter $%s (parameters: $partition_key, $partition_start, $partition_end)", name)
		}
		args = append(args, sql.Named(name, v))
	}
	read := make([][]VersionRef, len(inputs))
	named := w.productsMentioned(query, inputs)
	if len(named) == 0 && cteReady(query, inputs) {
		if t, err := w.runWithCTEs(ctx, query, inputs, args); err == nil {
			return t, read, nil, nil
		}
	}
	var out *sdk.Table
	var byName [][]VersionRef
	run := w.scratchTx
	if !readsInPlace(inputs) && len(named) == 0 {
		run = w.droppingConn(inputs)
	}
	err := run(ctx, func(conn *sql.Conn) error {
		if len(named) > 0 {
			var err error
			if byName, err = productReads(ctx, conn, query, named, pinned); err != nil {
				return err
			}
		}
		for i, in := range inputs {
			var err error
			if in.Read != nil {
				read[i], err = bindVersions(ctx, conn, in.Name, in.Read)
			} else {
				err = createTempTable(ctx, conn, in.Name, in.Table)
			}
			if err != nil {
				return fmt.Errorf("upstream %s: %w", in.Name, err)
			}
		}
		var err error
		out, err = queryTable(ctx, conn, query, args...)
		return err
	})
	if err != nil {
		return nil, nil, nil, err
	}
	return out, read, byName, nil
}

func readsInPlace(inputs []SQLInput) bool {
	for _, in := range inputs {
		if in.Read != nil {
			return true
		}
	}
	return false
}

// droppingConn runs fn on a pooled connection and then drops the inputs'
// temporary tables, so the next block on the connection sees none of them.
func (w *Warehouse) droppingConn(inputs []SQLInput) func(ctx context.Context, fn func(conn *sql.Conn) error) error {
	return func(ctx context.Context, fn func(conn *sql.Conn) error) error {
		return w.onConn(ctx, func(conn *sql.Conn) error {
			defer func() {
				for _, in := range inputs {
					_, _ = conn.ExecContext(context.WithoutCancel(ctx), "DROP TABLE IF EXISTS temp."+quoteIdent(in.Name))
				}
			}()
			return fn(conn)
		})
	}
}

// scratchTx runs fn on a pooled connection inside a read-only transaction
// that is always rolled back: the temporary tables and views fn creates
// (which DuckDB allows there) vanish with it, so the next block on the
// connection sees none of them and nothing is dropped one by one.
func (w *Warehouse) scratchTx(ctx context.Context, fn func(conn *sql.Conn) error) error {
	return w.onConn(ctx, func(conn *sql.Conn) error {
		if _, err := conn.ExecContext(ctx, "BEGIN TRANSACTION READ ONLY"); err != nil {
			return err
		}
		ferr := fn(conn)
		if _, err := conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK"); err != nil {
			// Its temporary objects may still be there: keep it out of the pool.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
			if ferr == nil {
				ferr = fmt.Errorf("end the SQL block's transaction: %w", err)
			}
		}
		return ferr
	})
}

var paramRef = regexp.MustCompile(`\$([A-Za-z_][A-Za-z0-9_]*)`)

// usedParams lists the named parameters a query mentions (outside quotes
// approximately: a $name inside a string literal is rare in SQL blocks).
func usedParams(query string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range paramRef.FindAllStringSubmatch(stripSQLComments(query), -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	return out
}

func stripSQLComments(q string) string {
	var b strings.Builder
	for _, line := range strings.Split(q, "\n") {
		if i := strings.Index(line, "--"); i >= 0 {
			line = line[:i]
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

func createTempTable(ctx context.Context, conn *sql.Conn, name string, t *sdk.Table) error {
	if err := t.Validate(); err != nil {
		return err
	}
	cols := t.Columns()
	defs := make([]string, len(cols))
	for j, c := range cols {
		defs[j] = quoteIdent(c.Name) + " " + duckType(c.Field())
	}
	if len(defs) == 0 {
		defs = []string{`"_empty" BOOLEAN`}
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("CREATE OR REPLACE TEMP TABLE %s (%s)", quoteIdent(name), strings.Join(defs, ", "))); err != nil {
		return err
	}
	if t.Len() == 0 || len(cols) == 0 {
		return nil
	}
	return conn.Raw(func(dc any) error {
		dconn, ok := dc.(driver.Conn)
		if !ok {
			return fmt.Errorf("driver connection is %T", dc)
		}
		a, err := duckdb.NewAppender(dconn, "temp", "main", name)
		if err != nil {
			return err
		}
		getters := make([]func(int) driver.Value, len(cols))
		for j, c := range cols {
			getters[j] = valueGetter(c)
		}
		row := make([]driver.Value, len(cols))
		for i := 0; i < t.Len(); i++ {
			for j, get := range getters {
				row[j] = get(i)
			}
			if err := a.AppendRow(row...); err != nil {
				_ = a.Close()
				return fmt.Errorf("row %d: %w", i, err)
			}
		}
		return a.Close()
	})
}
