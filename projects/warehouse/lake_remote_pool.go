package warehouse

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"fmt"
	"sync"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/stratahq/strata/projects/extensions"
)

// remoteLakes are the read-only lakes this process (a worker) attached
// for ReadLakeVersions, one DuckDB per catalog, data path, password and
// bucket key,
// kept between tasks: a task then costs a transaction on an attached lake
// instead of a new DuckDB, its extensions loaded, a Postgres connection
// and the catalog's first read. The password lives only in this memory
// (inside the DuckDB's ATTACH); the key holds its hash, so a rotated
// password attaches anew. Any read that fails drops its DuckDB.
var remoteLakes = &lakeReaders{dbs: map[string]*lakeReader{}}

// maxRemoteLakes bounds the lakes kept attached; the least recently used
// is closed.
const maxRemoteLakes = 4

type lakeReaders struct {
	mu    sync.Mutex
	dbs   map[string]*lakeReader
	opens int // DuckDBs opened, for tests
}

type lakeReader struct {
	db   *sql.DB
	used time.Time
}

func lakeReaderKey(l *lakeBackend) string {
	h := sha256.New()
	h.Write([]byte(l.opts.Password))
	if k := l.opts.S3; k != nil {
		// A bucket's key too: a rotated key attaches anew.
		ssl := k.UseSSL != nil && *k.UseSSL
		fmt.Fprintf(h, "\x00%q %q %q %q %q %q %t", k.KeyID, k.Secret, k.Endpoint, k.Region, k.URLStyle, k.Scope, ssl)
	}
	return l.opts.Catalog + "\x00" + l.opts.DataPath + "\x00" + hex.EncodeToString(h.Sum(nil))
}

// open is the DuckDB attached to l read-only, opened on first use.
func (r *lakeReaders) open(l *lakeBackend) (*sql.DB, error) {
	k := lakeReaderKey(l)
	r.mu.Lock()
	defer r.mu.Unlock()
	if x := r.dbs[k]; x != nil {
		x.used = time.Now()
		return x.db, nil
	}
	// Each new connection of the pool attaches (once per database, a
	// no-op after) and USEs the lake; not bound to the first task's ctx.
	connector, err := duckdb.NewConnector("?"+extensions.DSNOptions(), func(c driver.ExecerContext) error {
		return l.initConn(context.Background(), c)
	})
	if err != nil {
		return nil, err
	}
	if len(r.dbs) >= maxRemoteLakes {
		old := ""
		for key, x := range r.dbs {
			if old == "" || x.used.Before(r.dbs[old].used) {
				old = key
			}
		}
		r.dbs[old].db.Close()
		delete(r.dbs, old)
	}
	db := sql.OpenDB(connector)
	r.dbs[k] = &lakeReader{db: db, used: time.Now()}
	r.opens++
	return db, nil
}

// drop closes l's DuckDB, if open.
func (r *lakeReaders) drop(l *lakeBackend) {
	k := lakeReaderKey(l)
	r.mu.Lock()
	defer r.mu.Unlock()
	if x := r.dbs[k]; x != nil {
		x.db.Close()
		delete(r.dbs, k)
	}
}
