package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"

	"github.com/stratahq/strata/blocks/sdk"
)

// SQL blocks on workers. A SQL block whose inputs are all outputs of its
// own run (tables, or files workers wrote into the lake's data folder)
// needs nothing of the warehouse: a worker runs its query in a DuckDB of
// its own over those inputs and writes the output's file like a Go
// block's, so neither its inputs nor its output travel through the
// coordinator. A block that reads products (its upstreams' committed
// versions, or a product by its view's name), ATTACHes a database or
// reads a file or URL runs on the coordinator as before: a worker has no
// catalog credentials, and the versions it reads are pinned there.

// SQLPortable says whether a SQL block's query may run away from the
// warehouse over the given input relations: one read-only statement
// without ATTACH or secret, naming no product of this warehouse (other
// than as an input's name).
func (w *Warehouse) SQLPortable(query string, inputs []string) bool {
	attaches, q, err := splitSQLBlock(query)
	if err != nil || len(attaches) > 0 || checkReadOnly(q) != nil {
		return false
	}
	ins := make([]SQLInput, len(inputs))
	for i, n := range inputs {
		ins[i] = SQLInput{Name: n}
	}
	return len(w.productsMentioned(q, ins)) == 0
}

// sandbox is the DuckDB a worker runs SQL blocks in: in memory, with no
// access to files, URLs or extensions (enable_external_access off, the
// configuration locked), so a query can read only the inputs it is given.
var sandbox struct {
	once sync.Once
	db   *sql.DB
	err  error
}

func sandboxDB() (*sql.DB, error) {
	sandbox.once.Do(func() {
		db, err := sql.Open("duckdb", "")
		if err == nil {
			_, err = db.Exec("SET enable_external_access = false; SET lock_configuration = true")
		}
		sandbox.db, sandbox.err = db, err
	})
	if sandbox.err != nil {
		return nil, fmt.Errorf("open the DuckDB that runs SQL blocks: %w", sandbox.err)
	}
	return sandbox.db, nil
}

// RunSQLOnTables runs a portable SQL block's query (SQLPortable) over
// tables named as its inputs, with the block's parameters: what
// RunSQLBlockIn computes for the same query and tables, without a
// warehouse. Any error says only that it could not run here; the
// coordinator then runs the block itself and reports its own error.
func RunSQLOnTables(ctx context.Context, query string, names []string, tables []*sdk.Table, params map[string]any) (*sdk.Table, error) {
	if len(names) != len(tables) {
		return nil, fmt.Errorf("%d input names for %d tables", len(names), len(tables))
	}
	_, q, err := splitSQLBlock(query)
	if err != nil {
		return nil, err
	}
	if err := checkReadOnly(q); err != nil {
		return nil, err
	}
	var args []any
	for _, name := range usedParams(q) {
		v, ok := params[name]
		if !ok {
			return nil, fmt.Errorf("unknown parameter $%s", name)
		}
		args = append(args, sql.Named(name, v))
	}
	db, err := sandboxDB()
	if err != nil {
		return nil, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	ins := make([]SQLInput, len(names))
	for i, n := range names {
		if tables[i] == nil {
			return nil, fmt.Errorf("input %s has no table", n)
		}
		ins[i] = SQLInput{Name: n, Table: tables[i]}
	}
	// As the warehouse does: the inputs read in place as CTEs where the
	// query allows, else copied into temporary tables.
	if cteReady(q, ins) {
		cq, release, err := withInputCTEs(q, ins)
		if err == nil {
			t, err := queryCTEs(ctx, conn, cq, args)
			release()
			if err == nil {
				return t, nil
			}
		}
	}
	var made []string
	defer func() {
		// Temporary tables live as long as the pooled connection: drop them.
		for _, n := range made {
			_, _ = conn.ExecContext(context.WithoutCancel(ctx), "DROP TABLE IF EXISTS temp.main."+quoteIdent(n))
		}
	}()
	for i, n := range names {
		if err := createTempTable(ctx, conn, n, tables[i]); err != nil {
			return nil, fmt.Errorf("upstream %s: %w", n, err)
		}
		made = append(made, n)
	}
	t, err := queryTable(ctx, conn, q, args...)
	if err != nil && (strings.Contains(err.Error(), "Permission Error") || strings.Contains(err.Error(), "disabled by configuration")) {
		return nil, fmt.Errorf("the query reads outside its inputs: %w", err)
	}
	return t, err
}
