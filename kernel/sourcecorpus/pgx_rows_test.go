package sourcecorpus

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/pgtest"
	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/corpus"
	"github.com/stratahq/strata/kernel/modtest"
	"github.com/stratahq/strata/kernel/projectkernel"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

// fromRowsBlock reads one query of every common Postgres type (and a row
// of NULLs) twice: with pgx's own Query through sdk.FromPgxRows, and with
// database/sql over pgx's driver through sdk.FromRows. It prints each
// table's schema and rows.
const fromRowsBlock = `package main

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stratahq/strata/blocks/sdk"
)

const query = "SELECT * FROM typed ORDER BY i2 NULLS LAST"

func show(what string, t *sdk.Table) {
	fmt.Println(what)
	for _, f := range t.Schema() {
		fmt.Printf("  %s %s(%d,%d)\n", f.Name, f.Type, f.Precision, f.Scale)
	}
	for i := 0; i < t.Len(); i++ {
		fmt.Printf("  %v\n", t.Row(i))
	}
}

func main() {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "{{PG_DSN}}")
	if err != nil {
		panic(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, query)
	if err != nil {
		panic(err)
	}
	t, err := sdk.FromPgxRows(rows)
	if err != nil {
		panic(err)
	}
	show("pgx", t)

	db, err := sql.Open("pgx", "{{PG_DSN}}")
	if err != nil {
		panic(err)
	}
	defer db.Close()
	srows, err := db.QueryContext(ctx, query)
	if err != nil {
		panic(err)
	}
	st, err := sdk.FromRows(srows)
	if err != nil {
		panic(err)
	}
	show("database/sql", st)
}
`

// TestFromPgxRowsTypesExactly reads a real Postgres with pgx through
// sdk.FromPgxRows (and with database/sql through sdk.FromRows), in a block
// compiled and interpreted in the project kernel: each column is typed by
// its Postgres type (numeric(16,2) an exact decimal, timestamptz an
// instant, ...), values exact, NULLs kept, and both engines print the same.
func TestFromPgxRowsTypesExactly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a project kernel with pgx")
	}
	tc, err := build.FindToolchain()
	if err != nil {
		t.Skip(err)
	}
	pg := pgtest.Start(t)
	pg.Psql(t, `CREATE TABLE typed (i2 int2, i4 int4, i8 int8, f4 float4, f8 float8, amount numeric(16,2), loose numeric,
		ok boolean, day date, wall timestamp, at timestamptz, doc jsonb, id uuid, raw bytea, name text, code varchar(3));
		INSERT INTO typed VALUES (1, 2, 9007199254740993, 1.5, 0.1, 12345678901234.56, 1.25, true, '2024-03-10',
			'2024-03-10 12:34:56.789', '2024-03-10 12:00:00+02', '{"b": 1, "a": [1, 2]}', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
			'\xdead', 'héllo', 'x');
		INSERT INTO typed (i2) VALUES (NULL)`)
	dir := modtest.Project(t, "../testdata/sources")
	src := strings.ReplaceAll(fromRowsBlock, "{{PG_DSN}}", pg.DSN())
	ctx := context.Background()
	req := &protocol.ExecRequest{Filename: "fromrows/main.go", Source: corpus.Block(src), Timeout: 60 * time.Second}
	w, err := build.Build(ctx, build.Options{Dir: filepath.Join(dir, ".strata", "build"), Tool: tc, Module: dir}, []build.Block{{File: req.Filename, Source: req.Source}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Failed[req.Filename]; err != nil {
		t.Fatal(err)
	}
	pools := build.NewPools(supervisor.Config{}, 1)
	defer pools.Close()
	compiled, release := pools.Acquire(w)
	defer release()
	res, _, err := compiled.Exec(ctx, req, nil, discard{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Error != nil {
		t.Fatalf("compiled: %s\n%s", res.Error.Message, res.Stdout)
	}
	if res.Stdout != wantFromRows {
		t.Errorf("compiled printed\n%s\nwant\n%s", res.Stdout, wantFromRows)
	}

	k, err := projectkernel.Build(ctx, projectkernel.Options{Dir: filepath.Join(dir, ".strata", "kernel"), Project: dir, Tool: tc}, projectkernel.Imports(src))
	if err != nil {
		t.Fatal(err)
	}
	interp := supervisor.NewPool(supervisor.Config{Command: k.Command()}, 1)
	defer interp.Close()
	ires, _, err := interp.Exec(ctx, req, nil, discard{})
	if err != nil {
		t.Fatal(err)
	}
	if ires.Error != nil {
		t.Fatalf("interpreted: %s (line %d)\n%s", ires.Error.Message, ires.Error.Line, ires.Stdout)
	}
	if ires.Stdout != wantFromRows {
		t.Errorf("interpreted printed\n%s\nwant\n%s", ires.Stdout, wantFromRows)
	}
}

// wantFromRows: Postgres' types as the SDK's; pgx gives jsonb as compact
// JSON, database/sql as Postgres prints it.
const wantFromRows = `pgx
  i2 int64(0,0)
  i4 int64(0,0)
  i8 int64(0,0)
  f4 float64(0,0)
  f8 float64(0,0)
  amount decimal(16,2)
  loose string(0,0)
  ok bool(0,0)
  day date(0,0)
  wall timestamp(0,0)
  at time(0,0)
  doc string(0,0)
  id string(0,0)
  raw string(0,0)
  name string(0,0)
  code string(0,0)
  [1 2 9007199254740993 1.5 0.1 12345678901234.56 1.25 true 2024-03-10 00:00:00 +0000 UTC 2024-03-10 12:34:56.789 +0000 UTC 2024-03-10 10:00:00 +0000 UTC {"a":[1,2],"b":1} a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11 \xdead héllo x]
  [<nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil>]
database/sql
  i2 int64(0,0)
  i4 int64(0,0)
  i8 int64(0,0)
  f4 float64(0,0)
  f8 float64(0,0)
  amount decimal(16,2)
  loose string(0,0)
  ok bool(0,0)
  day date(0,0)
  wall timestamp(0,0)
  at time(0,0)
  doc string(0,0)
  id string(0,0)
  raw string(0,0)
  name string(0,0)
  code string(0,0)
  [1 2 9007199254740993 1.5 0.1 12345678901234.56 1.25 true 2024-03-10 00:00:00 +0000 UTC 2024-03-10 12:34:56.789 +0000 UTC 2024-03-10 10:00:00 +0000 UTC {"a": [1, 2], "b": 1} a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11 \xdead héllo x]
  [<nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil> <nil>]
`
