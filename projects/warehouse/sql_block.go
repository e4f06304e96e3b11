package warehouse

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/stratahq/strata/blocks/sdk"
)

// RunSQL runs a SQL block: the inputs become temporary tables named by
// upstream block id (they shadow product views of the same name), the
// partition's bounds bind to $partition_key, $partition_start and
// $partition_end where the query uses them, and the result comes back as a
// table. It runs on a connection of its own, concurrently with other reads;
// it never writes the database.
func (w *Warehouse) RunSQL(ctx context.Context, query string, inputs map[string]*sdk.Table, params map[string]any) (*sdk.Table, error) {
	if err := checkReadOnly(query); err != nil {
		return nil, fmt.Errorf("a SQL block is one SELECT: %w", err)
	}
	conn, err := w.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	names := make([]string, 0, len(inputs))
	for n := range inputs {
		names = append(names, n)
	}
	sort.Strings(names)
	defer func() {
		for _, n := range names {
			_, _ = conn.ExecContext(context.Background(), "DROP TABLE IF EXISTS temp."+quoteIdent(n))
		}
	}()
	for _, n := range names {
		if err := createTempTable(ctx, conn, n, inputs[n]); err != nil {
			return nil, fmt.Errorf("upstream %s: %w", n, err)
		}
	}
	var args []any
	for _, name := range usedParams(query) {
		v, ok := params[name]
		if !ok {
			return nil, fmt.Errorf("unknown parameter $%s (parameters: $partition_key, $partition_start, $partition_end)", name)
		}
		args = append(args, sql.Named(name, v))
	}
	rows, err := conn.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanTable(rows)
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
