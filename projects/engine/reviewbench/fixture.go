// Package reviewbench builds the large fixture that the review benchmarks of
// the engine and the server share: the demo pipeline with five years
// (2020-01-01..2024-12-31: 1,827 days and 262 weeks, 2,089 partitions) of
// every product current, and a backfill published for review that staged a
// new version of every one of them. It is test support, imported only by
// benchmarks.
//
// Running the demo for five years twice takes minutes, so the fixture runs
// the real pipeline for one week (real schemas, real rows) and then copies
// those rows to every partition with bulk SQL in the layout Publish writes:
// version 1 current, version 2 staged, pinned for the backfill and recorded
// as its runs' output. In daily_customer_metrics every tenth customer's
// revenue differs in version 2, and the weekly rollup's second version is
// a different week's rows; every other product's staged version has the same
// rows (and content hash) as the current one, as when a backfill re-runs
// unchanged code.
package reviewbench

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/warehouse"
)

// First and Last bound the fixture's range.
const (
	First = "2020-01-01"
	Last  = "2024-12-31"
)

// Options shape the fixture.
type Options struct {
	// CustomerCopies repeats every daily_customer_metrics row this many
	// times with other customer ids (0 or 1: the demo's 270 rows a day; 4:
	// 1,080, the ~1,000-row partition of the row diff target).
	CustomerCopies int
}

// Build writes the fixture into an engine over a fresh demo project and
// returns the review backfill's id. It writes behind the warehouse's back:
// close and reopen the warehouse (and engine) before writing through them.
func Build(ctx context.Context, eng *engine.Engine, wh *warehouse.Warehouse, opt Options) (string, error) {
	seed, err := eng.Launch(ctx, engine.BackfillSpec{Pipeline: "clv", From: First, To: "2020-01-07"})
	if err != nil {
		return "", err
	}
	if st, err := eng.Wait(ctx, seed.ID); err != nil || st.State != engine.StateSucceeded {
		return "", fmt.Errorf("seed backfill: %v %+v", err, st)
	}
	pl, err := eng.Pipeline("clv")
	if err != nil {
		return "", err
	}
	id := "bf_review_fixture"
	db := wh.DB()
	var stmts []string
	for _, b := range pl.Blocks {
		product := engine.ProductName(pl, b)
		spec, err := engine.SpecOf(b.Partitions)
		if err != nil {
			return "", err
		}
		parts, err := spec.Range(spec.At(mustDay(First)).Key, spec.At(mustDay(Last)).Key)
		if err != nil {
			return "", err
		}
		var table, seedKey string
		if err := db.QueryRowContext(ctx, `SELECT storage_table, min(partition) FROM _strata.versions WHERE product = ? GROUP BY storage_table`, product).Scan(&table, &seedKey); err != nil {
			return "", fmt.Errorf("%s: seed partition: %w", product, err)
		}
		var cols []string
		rows, err := db.QueryContext(ctx, `SELECT column_name FROM duckdb_columns() WHERE schema_name = '_strata' AND table_name = ? AND column_name NOT IN ('_partition', '_version') ORDER BY column_index`, table)
		if err != nil {
			return "", err
		}
		for rows.Next() {
			var c string
			if err := rows.Scan(&c); err != nil {
				rows.Close()
				return "", err
			}
			cols = append(cols, `"`+c+`"`)
		}
		rows.Close()
		var keys strings.Builder
		for i, p := range parts {
			if i > 0 {
				keys.WriteString(", ")
			}
			fmt.Fprintf(&keys, "('%s', TIMESTAMPTZ '%s', TIMESTAMPTZ '%s', %d)", p.Key, p.Start.UTC().Format(time.RFC3339), p.End.UTC().Format(time.RFC3339), i)
		}
		q := `"_strata"."` + table + `"`
		staged, from := strings.Join(cols, ", "), "fx_seed"
		switch b.ID {
		case "daily_customer_metrics":
			staged = strings.Replace(staged, `"revenue"`, `CASE WHEN customer_id % 10 = 0 THEN revenue + 1 ELSE revenue END`, 1)
		case "weekly_customer_rollup":
			from = "fx_seed2" // another week's rows
		}
		seedSQL := `SELECT * FROM ` + q + ` WHERE _partition = '` + seedKey + `' AND _version = 1`
		if b.ID == "daily_customer_metrics" && opt.CustomerCopies > 1 {
			seedSQL = fmt.Sprintf(`SELECT s.* REPLACE (s.customer_id + c.range * 1000000 AS customer_id) FROM (%s) s, range(%d) c`, seedSQL, opt.CustomerCopies)
		}
		stmts = append(stmts,
			`CREATE OR REPLACE TEMP TABLE fx_keys AS SELECT * FROM (VALUES `+keys.String()+`) AS k(fx_key, pstart, pend, idx)`,
			`CREATE OR REPLACE TEMP TABLE fx_seed AS `+seedSQL,
			`CREATE OR REPLACE TEMP TABLE fx_seed2 AS SELECT * FROM `+q+` WHERE _partition = (SELECT max(_partition) FROM `+q+`) AND _version = 1`,
			`DELETE FROM `+q,
			`DELETE FROM _strata.versions WHERE product = '`+product+`'`,
			`INSERT INTO `+q+` SELECT k.fx_key, 1, `+strings.Join(cols, ", ")+` FROM fx_keys k, fx_seed ORDER BY k.idx`,
			`INSERT INTO `+q+` SELECT k.fx_key, 2, `+staged+` FROM fx_keys k, `+from+` ORDER BY k.idx`,
		)
		changed := "false"
		if b.ID == "daily_customer_metrics" || b.ID == "weekly_customer_rollup" {
			changed = "true"
		}
		stmts = append(stmts,
			`INSERT INTO _strata.versions (product, partition, partition_start, partition_end, version, run_id, code_hash, upstream, row_count, schema, created_at, storage_table, is_current, content_hash, based_on)
			SELECT '`+product+`', k.fx_key, k.pstart, k.pend, v.n, CASE WHEN v.n = 1 THEN 'seed:' ELSE '`+id+`:' END || k.fx_key, 'code', '{}'::JSON,
				CASE WHEN v.n = 1 THEN (SELECT count(*) FROM fx_seed) ELSE (SELECT count(*) FROM `+from+`) END,
				(SELECT schema FROM _strata.storage WHERE table_name = '`+table+`'), now(), '`+table+`', v.n = 1,
				CASE WHEN v.n = 2 AND `+changed+` THEN 'changed-' ELSE 'same-' END || k.fx_key, v.n - 1
			FROM fx_keys k, (VALUES (1), (2)) v(n)`,
			`INSERT INTO _strata.pins SELECT '`+id+`', '`+product+`', fx_key, 2 FROM fx_keys`,
		)
	}
	spec, _ := json.Marshal(engine.BackfillSpec{Pipeline: "clv", From: First, To: Last, Reprocess: engine.ReprocessAll, Publish: engine.PublishReview, Concurrency: 4})
	stmts = append(stmts,
		`INSERT INTO _strata.backfills (backfill_id, created_at, pipeline, spec) VALUES ('`+id+`', now(), 'clv', '`+string(spec)+`')`,
		`INSERT INTO _strata.backfill_events VALUES ('`+id+`', now(), 'review', 'ready for review (fixture)')`,
		`CHECKPOINT`,
	)
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return "", fmt.Errorf("%.200s: %w", s, err)
		}
	}
	return id, nil
}

func mustDay(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t.Add(12 * time.Hour) // midday: inside the day in any zone
}
