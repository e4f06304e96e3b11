package replay

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/kernel/kerneltest"
	"github.com/stratahq/strata/kernel/supervisor"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/scaffold"
	"github.com/stratahq/strata/projects/warehouse"
)

func TestMain(m *testing.M) {
	kerneltest.ServeIfChild()
	os.Exit(m.Run())
}

// demoEnv is the demo project with a week of it backfilled (interpreted).
type demoEnv struct {
	t   *testing.T
	dir string
	wh  *warehouse.Warehouse
	eng *engine.Engine
}

func newDemo(t *testing.T) *demoEnv {
	t.Helper()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "proj")
	if err := scaffold.Init(dir, true); err != nil {
		t.Fatal(err)
	}
	proj, err := project.Load(dir)
	if proj == nil {
		t.Fatal(err)
	}
	wh, err := warehouse.Open(ctx, filepath.Join(dir, ".strata", "warehouse.duckdb"), warehouse.Options{Retention: proj.Retention})
	if err != nil {
		t.Fatal(err)
	}
	pool := supervisor.NewPool(kerneltest.Config(), 2)
	eng, err := engine.New(ctx, proj, wh, pool, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		eng.Shutdown(context.Background())
		eng.Close()
		pool.Close()
		_ = wh.Close()
	})
	st, err := eng.Launch(ctx, engine.BackfillSpec{Pipeline: "clv", From: "2024-03-04", To: "2024-03-10", Engine: engine.EngineInterp})
	if err != nil {
		t.Fatal(err)
	}
	if st, err = eng.Wait(ctx, st.ID); err != nil || st.State != engine.StateSucceeded {
		t.Fatalf("backfill: %v %+v", err, st)
	}
	return &demoEnv{t: t, dir: dir, wh: wh, eng: eng}
}

// dump is every table of the warehouse file, row for row (sorted text).
func (d *demoEnv) dump() map[string]string {
	d.t.Helper()
	rows, err := d.wh.DB().Query(`SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = current_database() ORDER BY ALL`)
	if err != nil {
		d.t.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var s, n string
		if err := rows.Scan(&s, &n); err != nil {
			d.t.Fatal(err)
		}
		names = append(names, fmt.Sprintf("%q.%q", s, n))
	}
	rows.Close()
	out := map[string]string{}
	for _, n := range names {
		var n64 int64
		var h string
		q := `SELECT count(*), coalesce(md5(string_agg(CAST(t AS VARCHAR), '|' ORDER BY CAST(t AS VARCHAR))), '') FROM ` + n + ` t`
		if err := d.wh.DB().QueryRow(q).Scan(&n64, &h); err != nil {
			d.t.Fatalf("%s: %v", q, err)
		}
		out[n] = fmt.Sprintf("%d rows %s", n64, h)
	}
	return out
}

func (d *demoEnv) replay(opt Options) *Report {
	d.t.Helper()
	opt.Pipeline = "clv"
	if opt.Engine == "" {
		opt.Engine = engine.EngineInterp
	}
	rep, err := Run(context.Background(), d.eng, opt, nil)
	if err != nil {
		d.t.Fatal(err)
	}
	return rep
}

func sameDump(t *testing.T, before, after map[string]string) {
	t.Helper()
	if len(before) != len(after) {
		t.Fatalf("tables before %d, after %d", len(before), len(after))
	}
	for n, b := range before {
		if after[n] != b {
			t.Errorf("table %s changed: %s -> %s", n, b, after[n])
		}
	}
}

func TestReplayUnchangedCodeWritesNothing(t *testing.T) {
	d := newDemo(t)
	before := d.dump()
	rep := d.replay(Options{ExpectUnchanged: []string{"daily_customer_metrics", "clv"}})
	// Seven days and the week (2024-W10) that holds them.
	if len(rep.Partitions) != 8 || rep.Counts != (Counts{Unchanged: 8}) || !rep.Passed {
		var b bytes.Buffer
		rep.WriteText(&b)
		t.Fatalf("counts %+v passed %v\n%s", rep.Counts, rep.Passed, b.String())
	}
	var keys []string
	for _, p := range rep.Partitions {
		keys = append(keys, p.Partition)
	}
	if got := strings.Join(keys, " "); got != "2024-03-04 2024-W10 2024-03-05 2024-03-06 2024-03-07 2024-03-08 2024-03-09 2024-03-10" {
		t.Errorf("partitions %s", got)
	}
	blocks := map[string]bool{}
	for _, p := range rep.Partitions {
		for _, b := range p.Blocks {
			blocks[b.Block] = true
		}
	}
	for _, b := range []string{"raw_orders", "daily_customer_metrics", "clv", "segments", "segment_stats", "segment_report", "weekly_customer_rollup"} {
		if !blocks[b] {
			t.Errorf("block %s was not replayed (%v)", b, blocks)
		}
	}
	sameDump(t, before, d.dump())
}

func TestReplayChangedBlock(t *testing.T) {
	d := newDemo(t)
	path := filepath.Join(d.dir, "blocks", "clv", "clv.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(src), "lifetime := 2.0", "lifetime := 2.5", 1)
	if changed == string(src) {
		t.Fatal("clv.go has no 'lifetime := 2.0' to change")
	}
	if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	before := d.dump()
	rep := d.replay(Options{Last: 3, ExpectUnchanged: []string{"daily_customer_metrics", "clv"}, Rows: 2})
	// The last three days and their week.
	if len(rep.Partitions) != 4 || rep.Counts != (Counts{Changed: 3, Unchanged: 1}) || rep.Passed {
		t.Fatalf("counts %+v passed %v", rep.Counts, rep.Passed)
	}
	for _, p := range rep.Partitions {
		for _, b := range p.Blocks {
			want := engine.ReplayUnchanged
			if b.Block == "clv" {
				want = engine.ReplayChanged
			}
			if b.Status != want {
				t.Errorf("%s %s: %s, want %s (%s)", p.Partition, b.Block, b.Status, want, b.Error)
			}
			if b.Block == "clv" && (b.Diff == nil || b.Diff.Counts.Total() == 0 || len(b.Diff.Rows) != 2) {
				t.Errorf("%s clv diff %+v", p.Partition, b.Diff)
			}
		}
	}
	if len(rep.Gates) != 2 || !rep.Gates[0].Passed || rep.Gates[1].Passed || len(rep.Gates[1].Changed) != 3 {
		t.Errorf("gates %+v", rep.Gates)
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	for _, want := range []string{"2024-03-10   changed", "clv (clv__clv)", "expect unchanged clv__clv: FAILED", "expect unchanged daily_customer_metrics: passed"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	var junit bytes.Buffer
	if err := rep.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	var parsed junitSuites
	if err := xml.Unmarshal(junit.Bytes(), &parsed); err != nil {
		t.Fatalf("junit does not parse: %v\n%s", err, junit.String())
	}
	if parsed.Failures != 3 || parsed.Errors != 0 || parsed.Tests == 0 {
		t.Errorf("junit counts %+v", parsed)
	}
	sameDump(t, before, d.dump())
}

func TestReplayFailedBlock(t *testing.T) {
	d := newDemo(t)
	path := filepath.Join(d.dir, "blocks", "clv", "clv.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(src), "\tout := sdk.NewTable(", "\tif ctx.Partition.Key == \"2024-03-09\" {\n\t\treturn nil, fmt.Errorf(\"replay boom\")\n\t}\n\tout := sdk.NewTable(", 1)
	if err := os.WriteFile(path, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := d.replay(Options{Last: 2})
	if rep.Counts != (Counts{Failed: 1, Unchanged: 2}) || rep.Passed {
		t.Fatalf("counts %+v passed %v", rep.Counts, rep.Passed)
	}
	for _, p := range rep.Partitions {
		for _, b := range p.Blocks {
			if p.Partition == "2024-03-09" && b.Block == "clv" {
				if b.Status != engine.ReplayFailed || !strings.Contains(b.Error, "replay boom") || b.ErrorFile != "blocks/clv/clv.go" {
					t.Errorf("clv on 2024-03-09: %+v", b)
				}
			} else if b.Status != engine.ReplayUnchanged {
				t.Errorf("%s %s: %s %s", p.Partition, b.Block, b.Status, b.Error)
			}
		}
	}
	var junit bytes.Buffer
	if err := rep.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	var parsed junitSuites
	if err := xml.Unmarshal(junit.Bytes(), &parsed); err != nil || parsed.Errors != 1 || parsed.Failures != 0 {
		t.Fatalf("junit %v %+v", err, parsed)
	}
}

// A dynamic block's children are replayed from its stored rows: one child
// failing fails its block (the others' count says how many), a changed
// child changes the union, and the reduce below, fed the stored union it
// recorded, stays unchanged.
func TestReplayFanOut(t *testing.T) {
	d := newDemo(t)
	path := filepath.Join(d.dir, "blocks", "segment_stats", "segment_stats.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(src), "\tkey := segment.Column(\"key\").Strings()[0]\n",
		"\tkey := segment.Column(\"key\").Strings()[0]\n\tif key == \"vip\" && ctx.Partition.Key == \"2024-03-10\" {\n\t\tpanic(\"vip child down\")\n\t}\n", 1)
	changed = strings.Replace(changed, "out.Append(key, n, math.Round(total*100)/100, avg, best)", "if key == \"regular\" {\n\t\tbest = -1\n\t}\n\tout.Append(key, n, math.Round(total*100)/100, avg, best)", 1)
	if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := d.replay(Options{Last: 2})
	status := map[string]string{}
	var failure string
	for _, p := range rep.Partitions {
		for _, b := range p.Blocks {
			status[p.Partition+" "+b.Block] = b.Status
			if p.Partition == "2024-03-10" && b.Block == "segment_stats" {
				failure = b.Error
				if b.Children != 3 {
					t.Errorf("children %d, want 3", b.Children)
				}
			}
		}
	}
	want := map[string]string{
		"2024-03-09 segment_stats": engine.ReplayChanged, "2024-03-10 segment_stats": engine.ReplayFailed,
		"2024-03-09 segment_report": engine.ReplayUnchanged, "2024-03-10 segment_report": engine.ReplayUnchanged,
		"2024-03-09 segments": engine.ReplayUnchanged, "2024-03-10 clv": engine.ReplayUnchanged,
	}
	for k, v := range want {
		if status[k] != v {
			t.Errorf("%s: %s, want %s", k, status[k], v)
		}
	}
	if !strings.Contains(failure, "1 of 3 children failed; first: ") || !strings.Contains(failure, "vip child down") {
		t.Errorf("failure %q", failure)
	}
	if rep.Counts.Failed != 1 || rep.Passed {
		t.Errorf("counts %+v passed %v", rep.Counts, rep.Passed)
	}
}

// A stored version whose recorded upstream version retention has removed
// since cannot be replayed on what its run read: the week's rollup read
// version 1 of each of its days; three more runs of one day (retention
// keeps 3) drop that day's version 1, and the week's replay fails naming
// it instead of reading the day's current version.
func TestReplayRecordedUpstreamGone(t *testing.T) {
	d := newDemo(t)
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		res, err := d.eng.Run(ctx, "clv", "2024-03-05", engine.RunOptions{FineOnly: true, Engine: engine.EngineInterp})
		if err != nil || res.State != engine.StateSucceeded {
			t.Fatalf("run %d of 2024-03-05: %v %+v", i, err, res)
		}
	}
	rep := d.replay(Options{From: "2024-03-05", To: "2024-03-05"})
	var week *engine.PartitionReplay
	for i, p := range rep.Partitions {
		if p.Partition == "2024-W10" {
			week = rep.Partitions[i]
		} else if p.Status != engine.ReplayUnchanged {
			t.Errorf("%s: %s", p.Partition, p.Status)
		}
	}
	if week == nil || week.Status != engine.ReplayFailed || len(week.Blocks) != 1 {
		t.Fatalf("the week: %+v", week)
	}
	b := week.Blocks[0]
	if want := "read daily_customer_metrics partition 2024-03-05 version 1, which is gone (retention or a discard removed it since)"; !strings.Contains(b.Error, want) {
		t.Errorf("error %q lacks %q", b.Error, want)
	}
	if rep.Counts.Failed != 1 || rep.Passed {
		t.Errorf("counts %+v passed %v", rep.Counts, rep.Passed)
	}
}
