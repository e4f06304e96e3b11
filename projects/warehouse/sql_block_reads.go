package warehouse

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// A SQL block may read a product by its view's name without declaring it
// upstream (SELECT ... FROM raw_events): it computes from that product as
// from an upstream, so its version must record what it read, as a Go
// block's ctx.Product reads are recorded (ReadSelected). Which products a
// query names is DuckDB's own parse (json_serialize_sql): a base table
// reference of the main schema that is neither a CTE of the query nor one
// of the block's inputs, and is a product. The parse costs a statement, so
// it is asked only when a product's name appears in the query as a word;
// the versions are read in the query's own snapshot.

var sqlWord = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_$]*`)

// productsMentioned lists the products whose name appears in query as a
// word (a quoted name with other characters is found by the parse only
// when a word of it matches; product names are identifiers), other than
// the inputs, which shadow product views of their name.
func (w *Warehouse) productsMentioned(query string, inputs []SQLInput) []string {
	shadow := map[string]bool{}
	for _, in := range inputs {
		shadow[strings.ToLower(in.Name)] = true
	}
	names := w.productNames()
	seen := map[string]bool{}
	var out []string
	for _, word := range sqlWord.FindAllString(stripSQLComments(query), -1) {
		k := strings.ToLower(word)
		if seen[k] || shadow[k] {
			continue
		}
		seen[k] = true
		if name, ok := names[k]; ok {
			out = append(out, name)
		}
	}
	return out
}

// productNames are the products as last committed, by lower-cased name.
// A SQL block reads them without the writer's lock, which a write holds
// through its whole transaction: a block would otherwise wait for every
// commit in progress (a backfill's group transactions, 20 ms and more
// each), and the runs computing beside a commit with it. What it reads is
// what it would have read just before that transaction took the lock, an
// order that was always possible: the query's own snapshot is taken
// later, on another connection, as it always was.
func (w *Warehouse) productNames() map[string]string {
	if p := w.names.Load(); p != nil {
		return *p
	}
	return nil
}

// noteNames replaces the names SQL blocks read with those of w.storage
// (w.mu held, or w not shared yet).
func (w *Warehouse) noteNames() {
	names := make(map[string]string, len(w.storage))
	for k, ps := range w.storage {
		if ps != nil {
			names[k] = ps.name
		}
	}
	w.names.Store(&names)
}

// productReads returns the current versions of the products among
// candidates that query reads by name, on conn (inside the query's
// transaction), one list per product.
//
// With pinned (a pin owner), each product read is shadowed by a temporary
// view of the versions that owner pinned, else the current ones: the query
// reads what an environment holds, as its inputs do.
func productReads(ctx context.Context, conn *sql.Conn, query string, candidates []string, pinned string) ([][]VersionRef, error) {
	refs, err := tablesReferenced(ctx, conn, query)
	if err != nil || len(refs) == 0 {
		return nil, err
	}
	var out [][]VersionRef
	for _, p := range candidates {
		if !refs[strings.ToLower(p)] {
			continue
		}
		parts, err := resolveSelection(ctx, conn, p, Selection{PreferPinned: pinned})
		if err != nil {
			return nil, fmt.Errorf("versions of %s, which the query reads: %w", p, err)
		}
		if pinned != "" && len(parts) > 0 {
			if err := shadowProduct(ctx, conn, p, parts); err != nil {
				return nil, fmt.Errorf("versions of %s, which the query reads: %w", p, err)
			}
		}
		read := make([]VersionRef, len(parts))
		for i, sp := range parts {
			read[i] = VersionRef{Product: p, Partition: sp.partition, Version: sp.version}
		}
		if len(read) > 0 {
			out = append(out, read)
		}
	}
	return out, nil
}

// tablesReferenced lists (lower-cased) the tables and views of the main
// schema that query names, from DuckDB's parse tree, without the names of
// its CTEs. A query that does not parse names nothing (it fails anyway).
func tablesReferenced(ctx context.Context, conn *sql.Conn, query string) (map[string]bool, error) {
	var raw string
	if err := conn.QueryRowContext(ctx, `SELECT json_serialize_sql(?::VARCHAR)::VARCHAR`, query).Scan(&raw); err != nil {
		return nil, fmt.Errorf("parse the query for the products it reads: %w", err)
	}
	var tree any
	if err := json.Unmarshal([]byte(raw), &tree); err != nil {
		return nil, fmt.Errorf("parse the query for the products it reads: %w", err)
	}
	tables, ctes := map[string]bool{}, map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch n := v.(type) {
		case map[string]any:
			if n["type"] == "BASE_TABLE" {
				schema, _ := n["schema_name"].(string)
				catalog, _ := n["catalog_name"].(string)
				name, _ := n["table_name"].(string)
				if (schema == "" || strings.EqualFold(schema, "main")) && catalog == "" && name != "" {
					tables[strings.ToLower(name)] = true
				}
			}
			if cm, ok := n["cte_map"].(map[string]any); ok {
				if entries, ok := cm["map"].([]any); ok {
					for _, e := range entries {
						if kv, ok := e.(map[string]any); ok {
							if k, ok := kv["key"].(string); ok {
								ctes[strings.ToLower(k)] = true
							}
						}
					}
				}
			}
			for _, c := range n {
				walk(c)
			}
		case []any:
			for _, c := range n {
				walk(c)
			}
		}
	}
	walk(tree)
	for k := range ctes {
		delete(tables, k)
	}
	return tables, nil
}

// shadowProduct makes product's name, for this connection's transaction, a
// temporary view of parts: the rows of those versions with _partition, as
// the product's view has them.
func shadowProduct(ctx context.Context, conn *sql.Conn, product string, parts []selectedPartition) error {
	storage, err := productTables(ctx, conn, product)
	if err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, fmt.Sprintf("CREATE OR REPLACE TEMP VIEW %s AS %s", quoteIdent(product), readSQL(parts, storage, -1)))
	return err
}

// ProductsMentioned lists the products query names (as words, before the
// query is planned): the candidates of its reads by name.
func (w *Warehouse) ProductsMentioned(query string) []string {
	return w.productsMentioned(query, nil)
}
