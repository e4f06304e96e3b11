package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// A day × region pipeline: a Go loader that writes its cell's region, a SQL
// aggregate that reads $dim_region, and a week × region rollup.
const cellPipeline = `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [us, eu, apac]
variables: {fail_on: "%s"}
retries: {attempts: 0}
concurrency: 3
blocks:
  - id: src
  - id: agg
    upstream: [src]
  - id: weekly
    upstream: [agg]
    partitions: {interval: week}
`

const cellSrcBlock = `package src

import (
	"errors"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	if ctx.Var("fail_on", "") == ctx.Partition.Key {
		return nil, errors.New("boom on " + ctx.Partition.Key)
	}
	t := sdk.NewTable(sdk.String("day"), sdk.String("region"), sdk.String("dims"), sdk.Int64("x"))
	dims := ""
	for _, d := range ctx.Partition.Dims {
		dims += d.Name + "=" + d.Value + ";"
	}
	for i := 0; i < ctx.Partition.Start.Day(); i++ {
		t.Append(ctx.Partition.TimeKey, ctx.Partition.Value("region"), dims, int64(i))
	}
	return t, nil
}
`

const cellAggBlock = `SELECT count(*) AS n, sum(x) AS s, $partition_key AS cell, $dim_region AS region, any_value(region) AS src_region FROM src`

const cellWeeklyBlock = `SELECT sum(n) AS n, count(*) AS days, $partition_key AS cell, $dim_region AS region FROM agg`

func cellFiles(failOn string) map[string]string {
	return map[string]string{
		"pipelines/p.yaml":  sprintf(cellPipeline, failOn),
		"blocks/src/src.go": cellSrcBlock,
		"blocks/agg.sql":    cellAggBlock,
		"blocks/weekly.sql": cellWeeklyBlock,
	}
}

func cellSpec(from, to string, where map[string][]string) BackfillSpec {
	return BackfillSpec{Pipeline: "p", From: from, To: to, Concurrency: 3, Where: where}
}

// TestCellRunSeesItsDimensions: ctx.Partition and the SQL parameters carry
// the cell's region, interpreted and compiled.
func TestCellRunSeesItsDimensions(t *testing.T) {
	t.Parallel()
	for _, compiled := range []bool{false, true} {
		var e *env
		if compiled {
			e = newCompiledEnv(t, false, cellFiles(""))
		} else {
			e = newEnv(t, false, cellFiles(""))
		}
		res := e.run("p", "2024-01-03|eu")
		e.mustSucceed(res)
		if compiled && res.Engine != "compiled" {
			t.Fatalf("engine %s (%s)", res.Engine, res.EngineNote)
		}
		src := res.Output("src")
		if src == nil || src.Len() != 3 {
			t.Fatalf("%s: src output %v", res.Engine, src)
		}
		row := src.Row(0)
		if row[0] != "2024-01-03" || row[1] != "eu" || row[2] != "region=eu;" {
			t.Fatalf("%s: src row %v", res.Engine, row)
		}
		if n := e.count(`SELECT count(*) FROM p__agg WHERE cell = '2024-01-03|eu' AND region = 'eu' AND src_region = 'eu' AND n = 3`); n != 1 {
			t.Fatalf("%s: agg did not see its cell", res.Engine)
		}
		if n := e.count(`SELECT count(*) FROM _strata.current WHERE product = 'p__src' AND partition = '2024-01-03|eu'`); n != 1 {
			t.Fatalf("%s: no current version of the cell", res.Engine)
		}
	}
}

func TestCellRunRefusesBadKeys(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, cellFiles(""))
	for key, want := range map[string]string{
		"2024-01-03":          `has 1 part(s): want 2, DAY|region (e.g. 2024-03-10|us)`,
		"2024-01-03|mars":     `"mars" is not a value of dimension region: its values: us, eu, apac`,
		"2023-12-31|eu":       "before the first partition",
		"2024-01-03|eu|extra": "has 3 part(s)",
	} {
		_, err := e.eng.Run(context.Background(), "p", key, RunOptions{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("run %q: %v; want %q", key, err, want)
		}
	}
}

// TestCellBackfillBox: a backfill over days × some regions versions and
// publishes each cell on its own, rolls each region's week up from that
// region's days, and skips current cells on a second pass.
func TestCellBackfillBox(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, cellFiles(""))
	box := cellSpec("2024-01-01", "2024-01-07", map[string][]string{"region": {"eu", "us"}})
	plan, err := e.eng.Plan(context.Background(), box, 0, 4)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Total != 14 || plan.ToRun != 14 || len(plan.Rollups) != 2 || len(plan.Partitions) != 4 {
		t.Fatalf("plan: total %d run %d rollups %d page %d", plan.Total, plan.ToRun, len(plan.Rollups), len(plan.Partitions))
	}
	if k := plan.Partitions[0].Key + " " + plan.Partitions[1].Key + " " + plan.Rollups[0].Key; k != "2024-01-01|us 2024-01-01|eu 2024-W01|us" {
		t.Fatalf("plan order: %s", k)
	}
	st := e.backfill(box)
	if st.State != StateSucceeded || st.Progress.Succeeded != 16 {
		t.Fatalf("backfill: %s %+v %s", st.State, st.Progress, st.Message)
	}
	for _, c := range []struct {
		query string
		want  int
	}{
		{`SELECT count(*) FROM _strata.current WHERE product = 'p__agg'`, 14},
		{`SELECT count(*) FROM _strata.current WHERE product = 'p__agg' AND partition LIKE '%|apac'`, 0},
		{`SELECT count(DISTINCT partition) FROM _strata.versions WHERE product = 'p__src'`, 14},
		{`SELECT count(*) FROM _strata.current WHERE product = 'p__weekly'`, 2},
		// Each region's week read that region's seven days, and only them.
		{`SELECT days FROM p__weekly WHERE cell = '2024-W01|eu' AND region = 'eu'`, 7},
		{`SELECT n FROM p__weekly WHERE cell = '2024-W01|us'`, 28},
	} {
		if n := e.count(c.query); n != c.want {
			t.Errorf("%s = %d, want %d", c.query, n, c.want)
		}
	}
	// Each region's week read its region's days: the other regions' days
	// in its range are not days it missed.
	stale := cellSpec("2024-01-01", "2024-01-07", map[string][]string{"region": {"eu", "us"}})
	stale.Reprocess = ReprocessStale
	if plan, err := e.eng.Plan(context.Background(), stale, 0, -1); err != nil || plan.ToRun != 0 {
		for _, r := range plan.Rollups {
			t.Logf("%s: %s %s (%s)", r.Key, r.State, r.Action, r.Reason)
		}
		t.Fatalf("reprocess stale after the backfill: %d to run, %v", plan.ToRun, err)
	}
	// The whole box: eu and us are current, apac is missing.
	all := cellSpec("2024-01-01", "2024-01-07", nil)
	again := e.backfill(all)
	if again.Progress.Succeeded != 8 || again.Progress.Skipped != 16 {
		t.Fatalf("second backfill: %+v (want 7 apac days and its week run, 16 skipped)", again.Progress)
	}
}

func TestCellBackfillRefusesBadBoxes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, cellFiles(""))
	for _, c := range []struct {
		spec BackfillSpec
		want string
	}{
		{cellSpec("2024-01-01", "2024-01-07", map[string][]string{"country": {"fr"}}), `no dimension "country": want one of region`},
		{cellSpec("2024-01-01", "2024-01-07", map[string][]string{"region": {"eu", "mars"}}), `"mars" is not a value of dimension region`},
		{cellSpec("2024-01-01|eu", "2024-01-07|eu", nil), "--from and --to are time keys (such as"},
	} {
		_, err := e.eng.Plan(context.Background(), c.spec, 0, 10)
		var se *SpecError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("plan %+v: %v; want a SpecError containing %q", c.spec, err, c.want)
		}
	}
	plain := newEnv(t, false, dailyFiles(""))
	_, err := plain.eng.Plan(context.Background(), cellSpec("2024-01-01", "2024-01-07", map[string][]string{"region": {"eu"}}), 0, 10)
	if err == nil || !strings.Contains(err.Error(), "this pipeline has no dimension besides time") {
		t.Errorf("where on a time-only pipeline: %v", err)
	}
}

// A dynamic customer dimension: its key set is column id of product
// dim_customers, written by the unpartitioned pipeline customers.
const customersPipeline = `variables: {ids: "%s"}
blocks:
  - id: list
    product: dim_customers
`

const dimCustomersBlock = `package list

import (
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.String("id"))
	for _, id := range strings.Split(ctx.Var("ids", ""), ",") {
		t.Append(id)
	}
	return t, nil
}
`

const dynPipeline = `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [us, eu]
    - name: customer
      from: {product: dim_customers, column: id}
retries: {attempts: 0}
blocks:
  - id: load
`

const dynLoadBlock = `package load

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.String("day"), sdk.String("region"), sdk.String("customer"))
	t.Append(ctx.Partition.TimeKey, ctx.Partition.Value("region"), ctx.Partition.Value("customer"))
	return t, nil
}
`

func dynFiles(ids string) map[string]string {
	return map[string]string{
		"pipelines/customers.yaml": sprintf(customersPipeline, ids),
		"blocks/list/list.go":      dimCustomersBlock,
		"pipelines/p.yaml":         dynPipeline,
		"blocks/load/load.go":      dynLoadBlock,
	}
}

// TestDynamicKeySet: the key set is read from its product and versioned;
// a plan says which version it used; @new selects the keys added since the
// previous version; a removed key keeps its cells' history; an older
// version can be targeted again.
func TestDynamicKeySet(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, false, dynFiles("c1,c2"))
	if _, err := e.eng.Plan(ctx, cellSpec("2024-01-01", "2024-01-02", nil), 0, 1); err == nil ||
		!strings.Contains(err.Error(), "dimension customer: its key set is column id of product dim_customers, which has no current data") {
		t.Fatalf("plan before the key set exists: %v", err)
	}
	e.mustSucceed(e.run("customers", "all"))
	plan, err := e.eng.Plan(ctx, cellSpec("2024-01-01", "2024-01-02", nil), 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Total != 8 || plan.KeySets["customer"] != 1 || plan.Partitions[1].Key != "2024-01-01|us|c2" {
		t.Fatalf("plan: total %d key sets %v first %q", plan.Total, plan.KeySets, plan.Partitions[1].Key)
	}
	st := e.backfill(cellSpec("2024-01-01", "2024-01-02", nil))
	if st.State != StateSucceeded || st.Progress.Succeeded != 8 || st.Spec.KeySets["customer"] != 1 {
		t.Fatalf("backfill: %s %+v key sets %v", st.State, st.Progress, st.Spec.KeySets)
	}
	if n := e.count(`SELECT count(*) FROM p__load WHERE day = '2024-01-02' AND region = 'eu' AND customer = 'c2'`); n != 1 {
		t.Fatalf("cell 2024-01-02|eu|c2 holds %d matching rows", n)
	}
	// A new customer: key set v2; @new is c3's cells only.
	writeFiles(t, e.dir, map[string]string{"pipelines/customers.yaml": sprintf(customersPipeline, "c1,c2,c3")})
	e.reload()
	e.mustSucceed(e.run("customers", "all"))
	newOnly := cellSpec("2024-01-01", "2024-01-02", map[string][]string{"customer": {NewKeys}})
	plan, err = e.eng.Plan(ctx, newOnly, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Total != 4 || plan.ToRun != 4 || plan.KeySets["customer"] != 2 || plan.Partitions[0].Key != "2024-01-01|us|c3" {
		t.Fatalf("@new plan: total %d run %d key sets %v first %q", plan.Total, plan.ToRun, plan.KeySets, plan.Partitions[0].Key)
	}
	if st := e.backfill(newOnly); st.Progress.Succeeded != 4 || st.Spec.Where["customer"][0] != NewKeys {
		t.Fatalf("@new backfill: %+v where %v", st.Progress, st.Spec.Where)
	}
	// The key set as it was: version 1 targets c1 and c2 only, all current.
	old := cellSpec("2024-01-01", "2024-01-02", nil)
	old.KeySets = map[string]int{"customer": 1}
	if plan, err = e.eng.Plan(ctx, old, 0, -1); err != nil || plan.Total != 8 || plan.ToRun != 0 {
		t.Fatalf("plan at key set v1: %+v, %v", plan, err)
	}
	// Removing c1: v3 no longer targets it, its cells keep their versions.
	writeFiles(t, e.dir, map[string]string{"pipelines/customers.yaml": sprintf(customersPipeline, "c2,c3")})
	e.reload()
	e.mustSucceed(e.run("customers", "all"))
	if plan, err = e.eng.Plan(ctx, cellSpec("2024-01-01", "2024-01-02", nil), 0, -1); err != nil || plan.Total != 8 || plan.KeySets["customer"] != 3 {
		t.Fatalf("plan at key set v3: %+v, %v", plan, err)
	}
	if n := e.count(`SELECT count(*) FROM _strata.current WHERE product = 'p__load' AND partition LIKE '%|c1'`); n != 4 {
		t.Fatalf("c1's cells: %d current, want their 4 kept", n)
	}
	sets, err := e.eng.KeySets(ctx, "p", "customer")
	if err != nil || len(sets) != 3 || strings.Join(sets[0].Removed, ",") != "c1" || strings.Join(sets[1].Added, ",") != "c3" {
		t.Fatalf("key sets: %+v, %v", sets, err)
	}
	for _, c := range []struct {
		spec BackfillSpec
		want string
	}{
		{BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-01", KeySets: map[string]int{"customer": 9}}, "dimension customer has no key set v9: the versions are 1 to 3"},
		{BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-01", Where: map[string][]string{"region": {NewKeys}}}, "region is static"},
		{BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-01", Where: map[string][]string{"customer": {"c1"}}}, `"c1" is not a value of dimension customer`},
	} {
		if _, err := e.eng.Plan(ctx, c.spec, 0, 1); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("plan %+v: %v; want %q", c.spec, err, c.want)
		}
	}
}
