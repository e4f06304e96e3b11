package sourcecorpus

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/pgtest"
	"github.com/stratahq/strata/e2e/s3test"
	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/corpus"
	"github.com/stratahq/strata/kernel/interp"
	"github.com/stratahq/strata/kernel/modtest"
	"github.com/stratahq/strata/kernel/projectkernel"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

// seedShop is the data the source corpus reads: a Postgres shop (customers,
// orders) and a bucket "shop" of CSV files under raw/.
func seedShop(t *testing.T) (*pgtest.Cluster, *s3test.Server) {
	t.Helper()
	pg := pgtest.Start(t)
	pg.Psql(t, `CREATE TABLE customers (id int PRIMARY KEY, name text NOT NULL);
		INSERT INTO customers VALUES (1, 'Ada'), (2, 'Grace'), (3, 'Edsger');
		CREATE TABLE orders (id bigint PRIMARY KEY, customer_id int REFERENCES customers, amount numeric(10,2), created_at timestamptz);
		INSERT INTO orders SELECT i, 1 + i % 3, (i * 7.25)::numeric(10,2), timestamptz '2024-03-09 20:00Z' + i * interval '3 hours'
		FROM generate_series(1, 10) i`)
	srv := s3test.Start(t)
	srv.CreateBucket(t, "shop")
	srv.Put(t, "shop", "raw/a.csv", []byte("id,amount\n1,7.25\n"))
	srv.Put(t, "shop", "raw/b.csv", []byte("id,amount\n2,14.50\n3,21.75\n"))
	srv.Put(t, "shop", "raw/c.csv", []byte("id,amount\n"))
	return pg, srv
}

// srcNeedsCompiled are the source corpus programs the project kernel sends
// to compiled mode, with the reason it must give at their line.
var srcNeedsCompiled = map[string]string{
	// A generic function of a module: yaegi's extract carries none. Was a
	// bare "undefined: pgx.CollectRows" before the import's package name
	// (pgx, not v5) was looked up.
	"pgx_query": "pgx.CollectRows is not in the project kernel's symbol tables of github.com/jackc/pgx/v5",
}

// TestSourceCorpus runs kernel/testdata/sourcecorpus (programs importing
// pgx/v5 and the AWS SDK's S3 client, reading a real Postgres and a real
// S3-compatible server) as blocks, interpreted in the project kernel and
// compiled: both must print what go run printed (stdout.golden).
func TestSourceCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a project kernel with pgx and the AWS SDK")
	}
	tc, err := build.FindToolchain()
	if err != nil {
		t.Skip(err)
	}
	pg, srv := seedShop(t)
	dir := modtest.Project(t, "../testdata/sources")
	fill := strings.NewReplacer("{{PG_DSN}}", pg.DSN(), "{{S3_ENDPOINT}}", srv.Endpoint, "{{S3_KEY_ID}}", srv.KeyID, "{{S3_SECRET}}", srv.Secret)
	names, err := filepath.Glob("../testdata/sourcecorpus/*/main.go")
	if err != nil || len(names) < 6 {
		t.Fatalf("source corpus: %d programs, %v", len(names), err)
	}
	type prog struct{ name, src, want string }
	var progs []prog
	var srcs []string
	var blocks []build.Block
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		p := prog{name: filepath.Base(filepath.Dir(n)), src: fill.Replace(string(b))}
		golden := filepath.Join(filepath.Dir(n), "stdout.golden")
		if *update {
			p.want = goRunIn(t, dir, p.name, p.src)
			if err := os.WriteFile(golden, []byte(p.want), 0o644); err != nil {
				t.Fatal(err)
			}
		} else {
			g, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			p.want = string(g)
			if got := goRunIn(t, dir, p.name, p.src); got != p.want {
				t.Errorf("%s: go run printed\n%s\nwant (stdout.golden)\n%s", p.name, got, p.want)
			}
		}
		progs = append(progs, p)
		srcs = append(srcs, p.src)
		blocks = append(blocks, build.Block{File: p.name + "/main.go", Source: corpus.Block(p.src)})
	}
	ctx := context.Background()
	k, err := projectkernel.Build(ctx, projectkernel.Options{Dir: filepath.Join(dir, ".strata", "kernel"), Project: dir, Tool: tc}, projectkernel.Imports(srcs...))
	if err != nil {
		t.Fatal(err)
	}
	if len(k.Gaps) > 0 {
		t.Errorf("packages the tables could not carry: %v", k.Gaps)
	}
	w, err := build.Build(ctx, build.Options{Dir: filepath.Join(dir, ".strata", "build"), Tool: tc, Module: dir}, blocks)
	if err != nil {
		t.Fatal(err)
	}
	interpPool := supervisor.NewPool(supervisor.Config{Command: k.Command()}, 1)
	defer interpPool.Close()
	pools := build.NewPools(supervisor.Config{}, 1)
	defer pools.Close()
	compiled, release := pools.Acquire(w)
	defer release()
	for _, p := range progs {
		t.Run(p.name, func(t *testing.T) {
			req := &protocol.ExecRequest{Filename: p.name + "/main.go", Source: corpus.Block(p.src), Timeout: 60 * time.Second}
			res, _, err := interpPool.Exec(ctx, req, nil, discard{})
			if err != nil {
				t.Fatal(err)
			}
			if reason, ok := srcNeedsCompiled[p.name]; ok {
				if res.Error == nil || res.Error.Kind != protocol.ErrUnsupported || !strings.Contains(res.Error.Message, interp.NeedsCompiledPrefix) ||
					!strings.Contains(res.Error.Message, reason) || res.Error.Line == 0 {
					t.Errorf("interpreted: want a needs-compiled refusal at a line naming %q, got %+v", reason, res.Error)
				}
			} else if res.Error != nil {
				t.Errorf("interpreted: %s (line %d); stdout so far:\n%s", res.Error.Message, res.Error.Line, res.Stdout)
			} else if res.Stdout != p.want {
				t.Errorf("interpreted stdout differs from go run\n--- project kernel\n%s\n--- go run\n%s", res.Stdout, p.want)
			}
			if rerr := w.Failed[req.Filename]; rerr != nil {
				t.Fatalf("compiled: %v", rerr)
			}
			cres, _, err := compiled.Exec(ctx, req, nil, discard{})
			if err != nil {
				t.Fatal(err)
			}
			if cres.Error != nil || cres.Stdout != p.want {
				t.Errorf("compiled: %+v; stdout differs from go run\n--- compiled\n%s\n--- go run\n%s", cres.Error, cres.Stdout, p.want)
			}
		})
	}
}
