package warehouse

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

// writeTx is one write transaction on the writer connection. It carries the
// storage changes it made (applied to the Warehouse only after COMMIT) and
// the products whose view must be rebuilt before COMMIT.
type writeTx struct {
	ctx     context.Context
	w       *Warehouse
	conn    *sql.Conn
	storage map[string]*productStorage // touched products (nil: product removed)
	views   map[string]bool            // lower-cased products whose view is rebuilt
	parts   map[partKey]*partState     // partitions read or changed by this transaction
	batch   catalogBatch               // catalog changes not written yet (catalog_pending.go)
	// catalogChanged: flush wrote versions rows (counted in
	// catalogChanges once the transaction commits).
	catalogChanged bool
	// orphans are the storage tables' rows of dropped versions, as this
	// transaction sees them; sweepAll deletes all of them (orphan_sweep.go).
	orphans  map[string][]VersionRef
	sweepAll bool
	// late are the partitions this transaction's publishes left waiting for
	// retention; lateDone says it applied retention to all that waited
	// (retention_late.go).
	late     map[partKey]bool
	lateDone bool
	// rideAlong is what the transaction's publishes hand the CommitHook
	// (warehouse_commit_hook.go).
	rideAlong []any
	// madeCurrent are, on a lake, the partitions whose current version
	// changed, named in the snapshot's commit info (lake_snapshot.go).
	madeCurrent map[partKey]int
	// newOwners are the product owners this transaction recorded
	// (product_owner.go), applied to the cache once committed.
	newOwners map[string]ProductOwner
	// rows are the new versions' rows not inserted yet, by storage table
	// (table_batch.go).
	rows map[string]rowBatch
	// files are the worker files to register, by storage table
	// (lake_file_output.go).
	files map[string][]string
}

// write runs fn in one transaction under the write lock: BEGIN, fn, view
// rebuilds, COMMIT. Any error rolls everything back and leaves the in-memory
// state as it was.
func (w *Warehouse) write(ctx context.Context, fn func(tx *writeTx) error) error {
	if err := w.checkOpen(); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.writable(ctx); err != nil {
		return err
	}
	return w.commitGroup([]*writeReq{{ctx: ctx, fn: fn}})
}

// writeReq is one caller's transaction body waiting for a grouped write.
type writeReq struct {
	ctx    context.Context
	fn     func(tx *writeTx) error
	err    error
	done   bool // under w.mu
	failed bool // its fn returned the group's error (commitGroup)
	// whole: written only in a transaction where every other body is
	// (a run's state riding with a group, PublishGroup); else ErrGroupSplit.
	whole bool
}

// maxGroup bounds how many queued writes share one transaction.
const maxGroup = 32

// writeGrouped is write for publishes: writes queued while another commits
// share the next transaction (and its COMMIT, most of a small publish's
// cost), run one after the other in it as they would in transactions of
// their own. Each fn is still all-or-nothing: if any of the group fails,
// the group is rolled back and the others commit without it, so one
// caller's error never fails another. A caller returns once its
// transaction committed.
func (w *Warehouse) writeGrouped(ctx context.Context, fn func(tx *writeTx) error) error {
	req := &writeReq{ctx: ctx, fn: fn}
	w.writeAll([]*writeReq{req})
	return req.err
}

// writeAll is writeGrouped for several bodies handed over at once (a
// backfill's group of partitions, publish_group.go): they queue together,
// so they share one transaction with each other and with whatever queued
// before them, each still all-or-nothing. It returns once every one of
// them committed or failed (its err).
func (w *Warehouse) writeAll(mine []*writeReq) {
	if err := w.checkOpen(); err != nil {
		for _, r := range mine {
			r.err = err
		}
		return
	}
	w.qmu.Lock()
	w.queue = append(w.queue, mine...)
	w.qmu.Unlock()
	w.mu.Lock()
	defer w.mu.Unlock()
	left := slices.DeleteFunc(slices.Clone(mine), func(r *writeReq) bool { return r.done })
	if len(left) == 0 { // a leader ran them while we waited for the lock
		return
	}
	w.qmu.Lock()
	n := min(len(w.queue), max(maxGroup, len(left)))
	// Leaders take the queue from its head; ours are added when more than
	// that were waiting: never left behind.
	group := slices.Clone(w.queue[:n])
	w.queue = slices.Delete(w.queue, 0, n)
	for _, r := range left {
		if !slices.Contains(group, r) {
			group = append(group, r)
			w.queue = slices.DeleteFunc(w.queue, func(q *writeReq) bool { return q == r })
		}
	}
	w.qmu.Unlock()
	live := group[:0:0]
	for _, r := range group {
		r.done = true
		if r.err = w.writable(r.ctx); r.err == nil {
			live = append(live, r)
		}
	}
	if len(live) < len(group) {
		live = dropWhole(live)
	}
	w.commitSplitting(live)
}

// dropWhole answers the bodies that are written only with their whole
// group ErrGroupSplit, and returns the others.
func dropWhole(reqs []*writeReq) []*writeReq {
	return slices.DeleteFunc(slices.Clone(reqs), func(r *writeReq) bool {
		if r.whole {
			r.err = ErrGroupSplit
		}
		return r.whole
	})
}

// commitSplitting commits reqs in one transaction (w.mu held). When one
// body fails, the others are committed together without it and it runs
// again alone (its error is then its own); when the transaction fails
// elsewhere (its catalog flush, the hook, COMMIT), each runs alone, as if
// never grouped. Either way the bodies written only with their whole
// group are not written (dropWhole).
func (w *Warehouse) commitSplitting(reqs []*writeReq) {
	if len(reqs) == 0 {
		return
	}
	err := w.commitGroup(reqs)
	if err == nil || len(reqs) == 1 {
		for _, r := range reqs {
			r.err = err
		}
		return
	}
	reqs = dropWhole(reqs)
	bad := slices.IndexFunc(reqs, func(r *writeReq) bool { return r.failed })
	if bad < 0 {
		for _, r := range reqs {
			r.err = w.commitGroup([]*writeReq{r})
		}
		return
	}
	r := reqs[bad]
	w.commitSplitting(slices.Delete(slices.Clone(reqs), bad, bad+1))
	r.failed = false
	r.err = w.commitGroup([]*writeReq{r})
}

// writable is what a write checks under the lock before it begins.
func (w *Warehouse) writable(ctx context.Context) error {
	if err := w.checkOpen(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if w.readOnly {
		return fmt.Errorf("%w (%s): this command only reads; run writes where the project is writable", ErrReadOnly, w.path)
	}
	return w.Healthy()
}

// commitGroup runs every request's fn in one transaction (w.mu held),
// each with its own context, then the view rebuilds and COMMIT; it applies
// the storage changes once committed.
func (w *Warehouse) commitGroup(reqs []*writeReq) error {
	tx, err := w.beginTx(reqs[0].ctx)
	if err != nil {
		return err
	}
	for _, r := range reqs {
		tx.ctx = r.ctx
		if err = r.fn(tx); err != nil {
			r.failed = true
			break
		}
	}
	return w.endTx(tx, err)
}

// beginTx opens a write transaction on the writer connection (w.mu held).
func (w *Warehouse) beginTx(ctx context.Context) (*writeTx, error) {
	if w.writer == nil {
		conn, err := w.db.Conn(context.WithoutCancel(ctx))
		if err != nil {
			return nil, fmt.Errorf("writer connection: %w", err)
		}
		if err := registerTableSource(conn); err != nil {
			conn.Close()
			return nil, fmt.Errorf("writer connection: %w", err)
		}
		w.writer = conn
	}
	tx := &writeTx{
		ctx: ctx, w: w, conn: w.writer,
		storage: map[string]*productStorage{}, views: map[string]bool{}, parts: map[partKey]*partState{},
	}
	if err := w.execPrepared(ctx, "BEGIN TRANSACTION"); err != nil {
		w.dropWriter()
		return nil, fmt.Errorf("begin: %w", err)
	}
	return tx, nil
}

// endTx ends tx (w.mu held): with err (its bodies failed) it rolls back;
// else the late retention, the flush, view rebuilds, the hook and COMMIT,
// and once committed the storage changes are applied.
func (w *Warehouse) endTx(tx *writeTx, err error) error {
	ctx := tx.ctx
	if err == nil {
		err = tx.applyLate()
	}
	if err == nil {
		err = tx.flush()
	}
	if err == nil {
		err = tx.rebuildViews()
	}
	if err == nil {
		err = tx.tagLakeSnapshot()
	}
	hooked := false
	if err == nil {
		hooked, err = tx.beforeCommit()
	}
	if err == nil {
		// Checked again at the end: the file may have been replaced or
		// removed while the transaction ran (writable checked it before it
		// began), and a COMMIT into the orphaned file would be answered
		// success for work a restart loses, with every event riding along.
		err = w.Healthy()
	}
	if err == nil {
		// COMMIT is never interrupted: a cancelled commit would leave us not
		// knowing whether it happened.
		if cerr := w.execPrepared(context.WithoutCancel(ctx), "COMMIT"); cerr != nil {
			err = fmt.Errorf("commit: %w", cerr)
		}
	}
	if err != nil {
		w.rollback(ctx)
		if hooked {
			w.hook.AfterCommit(err)
		}
		return ioHint(w.path, err)
	}
	if hooked {
		w.hook.AfterCommit(nil)
	}
	w.commits.Add(1)
	if tx.catalogChanged {
		w.catalogChanges.Add(1)
	}
	if tx.newOwners != nil {
		if w.owners == nil {
			w.owners = map[string]ProductOwner{}
		}
		for k, o := range tx.newOwners {
			delete(w.owners, k)
			w.owners[k] = o
		}
	}
	w.keepOrphans(tx)
	w.keepLate(tx)
	for key, ps := range tx.storage {
		if ps == nil {
			delete(w.storage, key)
		} else {
			w.storage[key] = ps
		}
	}
	if len(tx.storage) > 0 {
		w.noteNames()
	}
	if len(w.parts)+len(tx.parts) > maxCachedPartitions {
		clear(w.parts) // a bound, not an LRU: states reload on demand
		clear(w.complete)
	}
	for k, st := range tx.parts {
		w.parts[k] = st
		w.last.note(k, st.last)
	}
	return nil
}

// maxCachedPartitions bounds the writer's partition-state cache (a few
// hundred bytes each).
const maxCachedPartitions = 200_000

// rollback ends a failed transaction. When even that fails the connection is
// in an unknown state, so it is thrown away and the next write opens another.
func (w *Warehouse) rollback(ctx context.Context) {
	_, err := w.writer.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
	if err != nil && !strings.Contains(err.Error(), "no transaction is active") {
		w.dropWriter()
	}
}

func (w *Warehouse) dropWriter() {
	if w.writer == nil {
		return
	}
	w.forgetStmts("")
	_ = w.writer.Raw(func(any) error { return driver.ErrBadConn }) // closes the driver connection
	_ = w.writer.Close()
	w.writer = nil
}

// exec runs a statement in the transaction. Statements with arguments are
// the catalog's fixed statements: they are prepared once per writer
// connection and reused; DDL and other one-off text runs directly.
func (tx *writeTx) exec(query string, args ...any) error {
	tx.w.statements.Add(1)
	if len(args) == 0 {
		_, err := tx.conn.ExecContext(tx.ctx, query)
		return err
	}
	stmt, err := tx.w.prepared(tx.ctx, query)
	if err != nil {
		return err
	}
	_, err = stmt.ExecContext(tx.ctx, args...)
	return err
}

// missingVersion is the not-found error for r, read from the catalog once
// this transaction's pending changes are in it.
func (tx *writeTx) missingVersion(r VersionRef) error {
	if err := tx.flush(); err != nil {
		return err
	}
	return missingVersion(tx.ctx, tx.conn, r)
}

// query runs a prepared query in the transaction.
func (tx *writeTx) query(query string, args ...any) (*sql.Rows, error) {
	tx.w.statements.Add(1)
	stmt, err := tx.w.prepared(tx.ctx, query)
	if err != nil {
		return nil, err
	}
	return stmt.QueryContext(tx.ctx, args...)
}

func (w *Warehouse) execPrepared(ctx context.Context, query string) error {
	w.statements.Add(1)
	stmt, err := w.prepared(ctx, query)
	if err == nil {
		_, err = stmt.ExecContext(ctx)
	}
	return err
}

// prepared returns the statement prepared on the writer for query.
func (w *Warehouse) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	if stmt, ok := w.stmts[query]; ok {
		return stmt, nil
	}
	stmt, err := w.writer.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	w.stmts[query] = stmt
	return stmt, nil
}

// forgetStmts closes the prepared statements whose text mentions name (all
// of them for ""), e.g. those of a storage table being dropped.
func (w *Warehouse) forgetStmts(name string) {
	for q, stmt := range w.stmts {
		if strings.Contains(q, name) {
			_ = stmt.Close()
			delete(w.stmts, q)
		}
	}
}

// product returns the storage of a product as this transaction sees it (nil
// when the product has no storage table yet). It refuses a name that
// differs only in case from an existing product.
func (tx *writeTx) product(name string) (*productStorage, error) {
	key := strings.ToLower(name)
	ps, touched := tx.storage[key]
	if !touched {
		ps = tx.w.storage[key]
	}
	if ps != nil && ps.name != name {
		return nil, fmt.Errorf("product %q differs only in case from existing product %q", name, ps.name)
	}
	return ps, nil
}

// ensureTable returns the storage table for (product, schema), creating it,
// registering it and marking the view for a rebuild when it is new.
func (tx *writeTx) ensureTable(product string, schema []sdk.Field) (string, error) {
	ps, err := tx.product(product)
	if err != nil {
		return "", err
	}
	name := storageTableName(product, schema)
	if ps != nil {
		if t, ok := ps.table(name); ok {
			if encodeSchema(t.schema) != encodeSchema(schema) {
				return "", fmt.Errorf("storage table %s exists with schema %s, want %s (hash collision)", name, encodeSchema(t.schema), encodeSchema(schema))
			}
			return name, nil
		}
		ps = ps.clone()
	} else {
		ps = &productStorage{name: product}
	}
	if err := tx.exec(createStorageSQL(name, schema)); err != nil {
		return "", fmt.Errorf("create storage table %s: %w", name, err)
	}
	if err := tx.exec(`INSERT INTO _strata.storage VALUES (?, ?, ?::JSON, now())`, name, product, encodeSchema(schema)); err != nil {
		return "", fmt.Errorf("register storage table %s: %w", name, err)
	}
	ps.tables = append(ps.tables, storageTable{name: name, schema: schema})
	key := strings.ToLower(product)
	tx.storage[key] = ps
	tx.views[key] = true
	return name, nil
}

// dropEmptyTables drops the product's storage tables that no version uses
// any more (after retention or a discard) and marks the view for a rebuild.
func (tx *writeTx) dropEmptyTables(product string, candidates map[string]bool) error {
	if len(candidates) == 0 {
		return nil
	}
	names := make([]string, 0, len(candidates))
	for n := range candidates {
		names = append(names, n)
	}
	sort.Strings(names)
	ps, err := tx.product(product)
	if err != nil || ps == nil {
		return err
	}
	ps = ps.clone()
	for _, name := range names {
		var n int
		tx.w.statements.Add(1)
		err := tx.conn.QueryRowContext(tx.ctx, `SELECT count(*) FROM _strata.versions WHERE storage_table = ?`, name).Scan(&n)
		if err != nil {
			return fmt.Errorf("count versions in %s: %w", name, err)
		}
		if n > 0 {
			continue
		}
		tx.w.forgetStmts(qualified(name))
		if err := tx.exec(`DROP TABLE ` + qualified(name)); err != nil {
			return fmt.Errorf("drop empty storage table %s: %w", name, err)
		}
		tx.forgetOrphans(name)
		if err := tx.exec(`DELETE FROM _strata.storage WHERE table_name = ?`, name); err != nil {
			return fmt.Errorf("unregister storage table %s: %w", name, err)
		}
		kept := ps.tables[:0]
		for _, t := range ps.tables {
			if t.name != name {
				kept = append(kept, t)
			}
		}
		ps.tables = kept
	}
	key := strings.ToLower(product)
	if len(ps.tables) == 0 {
		tx.storage[key] = nil
	} else {
		tx.storage[key] = ps
	}
	tx.views[key] = true
	return nil
}

// rebuildViews recreates (or drops) the view of every product whose storage
// tables changed in this transaction.
func (tx *writeTx) rebuildViews() error {
	keys := make([]string, 0, len(tx.views))
	for k := range tx.views {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var overlays []string
	if len(keys) > 0 {
		var err error
		if overlays, err = tx.overlays(); err != nil { // view_overlay.go
			return err
		}
	}
	for _, key := range keys {
		ps, touched := tx.storage[key]
		if !touched {
			ps = tx.w.storage[key]
		}
		if ps == nil || len(ps.tables) == 0 {
			// The product is gone; its view (named like it) goes too.
			name := key
			if old := tx.w.storage[key]; old != nil {
				name = old.name
			}
			if err := tx.exec(`DROP VIEW IF EXISTS main.` + quoteIdent(name)); err != nil {
				return fmt.Errorf("drop view %s: %w", name, err)
			}
			if err := tx.rebuildOverlayViews(overlays, name, nil); err != nil {
				return err
			}
			continue
		}
		if err := tx.exec(viewSQL(ps)); err != nil {
			return fmt.Errorf("create view %s: %w", ps.name, err)
		}
		if err := tx.rebuildOverlayViews(overlays, ps.name, ps); err != nil {
			return err
		}
	}
	return nil
}
