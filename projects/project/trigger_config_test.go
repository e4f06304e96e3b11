package project

import (
	"strings"
	"testing"
)

// TestTriggerProblems: every bad trigger is a load problem with file, line,
// field and what was expected.
func TestTriggerProblems(t *testing.T) {
	t.Parallel()
	daily := lines("partitions: {interval: day, timezone: America/New_York}", "blocks:", "  - id: a", "    product: a_out", "triggers:")
	cases := []struct {
		name  string
		extra string
		want  []want
	}{
		{"valid schedule, event on an own-project product elsewhere, api", lines(
			"  - id: nightly", "    schedule: {cron: \"30 2 * * *\", timezone: Europe/Paris}", "    run: last 3", "    catch_up: {max: 7}",
			"  - id: manual", "    api: true"), nil},
		{"bad cron", lines("  - id: n", "    schedule: {cron: \"61 2 * * *\"}"),
			[]want{{pf, 7, "triggers[0].schedule.cron", "bad cron \"61 2 * * *\""}}},
		{"unknown zone", lines("  - id: n", "    schedule:", "      cron: \"0 0 * * *\"", "      timezone: Mars/Base"),
			[]want{{pf, 9, "triggers[0].schedule.timezone", "unknown time zone \"Mars/Base\""}}},
		{"unknown product", lines("  - id: up", "    when: {product: raw_evnts}"),
			[]want{{pf, 7, "triggers[0].when.product", "unknown product \"raw_evnts\""}}},
		{"run not fitting", lines("  - id: n", "    schedule: {cron: \"0 0 * * *\"}", "    run: all"),
			[]want{{pf, 8, "triggers[0].run", "run: all is for unpartitioned pipelines"}}},
		{"affected on a schedule", lines("  - id: n", "    schedule: {cron: \"0 0 * * *\"}", "    run: affected"),
			[]want{{pf, 8, "triggers[0].run", "needs a when"}}},
		{"unknown run", lines("  - id: n", "    api: true", "    run: yesterday"),
			[]want{{pf, 8, "triggers[0].run", "unknown run \"yesterday\""}}},
		{"two kinds", lines("  - id: n", "    api: true", "    schedule: {cron: \"0 0 * * *\"}"),
			[]want{{pf, 6, "triggers[0]", "has schedule and api"}}},
		{"no kind", lines("  - id: n", "    run: latest-complete"),
			[]want{{pf, 6, "triggers[0]", "says nothing about when it fires"}}},
		{"duplicate id and bad catch_up", lines("  - id: n", "    api: true", "  - id: n", "    schedule: {cron: \"@daily\"}", "    catch_up: {max: 0}"),
			[]want{{pf, 10, "triggers[1].catch_up.max", "want at least 1"}, {pf, 8, "triggers[1].id", "duplicate trigger id \"n\" (first at line 6)"}}},
		{"unknown trigger field", lines("  - id: n", "    api: true", "    cron: \"0 0 * * *\""),
			[]want{{pf, 8, "triggers[0].cron", "unknown field \"cron\""}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			files := with(sqlBlocks("a", "b"), map[string]string{pf: daily + c.extra,
				"pipelines/other.yaml": lines("blocks:", "  - id: b", "    product: raw_events")})
			_, probs := loadProject(t, writeProject(t, files))
			assertProblems(t, probs, c.want)
		})
	}
}

// TestTriggerLoopRefused: pipelines that trigger each other through their
// products are refused at load, at the trigger closing the loop.
func TestTriggerLoopRefused(t *testing.T) {
	t.Parallel()
	files := with(sqlBlocks("a", "b", "c"), map[string]string{
		"pipelines/pa.yaml": lines("blocks:", "  - id: a", "    product: pa_out", "triggers:", "  - id: up", "    when: {product: pc_out}"),
		"pipelines/pb.yaml": lines("blocks:", "  - id: b", "    product: pb_out", "triggers:", "  - id: up", "    when: {product: pa_out}"),
		"pipelines/pc.yaml": lines("blocks:", "  - id: c", "    product: pc_out", "triggers:", "  - id: up", "    when: {product: pb_out}"),
	})
	p, probs := loadProject(t, writeProject(t, files))
	assertProblems(t, probs, []want{{"pipelines/pa.yaml", 6, "triggers[0].when.product", "trigger loop: pa -> pb -> pc -> pa"}})
	if len(p.Pipelines["pb"].Problems) != 0 {
		t.Errorf("pb should load clean: %v", p.Pipelines["pb"].Problems)
	}
	// A pipeline triggered by its own product is the shortest loop.
	self := with(sqlBlocks("a"), map[string]string{
		"pipelines/pa.yaml": lines("blocks:", "  - id: a", "    product: pa_out", "triggers:", "  - id: up", "    when: {product: pa_out}")})
	_, probs = loadProject(t, writeProject(t, self))
	assertProblems(t, probs, []want{{"pipelines/pa.yaml", 6, "triggers[0].when.product", "trigger loop: pa -> pa"}})
}

func TestTriggerDefaults(t *testing.T) {
	t.Parallel()
	files := with(sqlBlocks("a", "b"), map[string]string{
		pf: lines("partitions: {interval: day, timezone: America/New_York}", "blocks:", "  - id: a", "triggers:",
			"  - id: nightly", "    schedule: {cron: \"30 2 * * *\"}", "  - id: up", "    when: {product: raw_events}"),
		"pipelines/other.yaml": lines("blocks:", "  - id: b", "    product: raw_events")})
	p, probs := loadProject(t, writeProject(t, files))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	pl := p.Pipelines["p"]
	n, up := pl.Trigger("nightly"), pl.Trigger("up")
	if n.Kind != TriggerSchedule || n.Timezone != "America/New_York" || n.Run.String() != "latest-complete" || n.CatchUp != 1 || n.Schedule == nil {
		t.Errorf("nightly defaults: %+v", n)
	}
	if up.Kind != TriggerEvent || up.Run.String() != "affected" || up.Product != "raw_events" {
		t.Errorf("event defaults: %+v", up)
	}
}

func TestReadsProblems(t *testing.T) {
	t.Parallel()
	files := with(sqlBlocks("a", "b"), map[string]string{
		pf:                     lines("blocks:", "  - id: a", "reads:", "  - product: raw_evnts", "  - product: raw_events", "    freshness: {max_age: soon}"),
		"pipelines/other.yaml": lines("blocks:", "  - id: b", "    product: raw_events")})
	p, probs := loadProject(t, writeProject(t, files))
	assertProblems(t, probs, []want{
		{pf, 4, "reads[0].product", `unknown product "raw_evnts" (did you mean "raw_events"?)`},
		{pf, 6, "reads[1].freshness.max_age", `bad duration "soon"`},
	})
	if r := p.Pipelines["p"].Read("raw_events"); r == nil || r.MaxAge != 0 {
		t.Errorf("read: %+v", r)
	}
}

func TestNewKeyTriggerConfig(t *testing.T) {
	t.Parallel()
	dims := lines("partitions:", "  interval: day", "  start: \"2024-01-01\"", "  dimensions:", "    - name: customer",
		"      from: {product: dim_customers, column: id}", "blocks:", "  - id: a", "triggers:")
	files := with(sqlBlocks("a", "b", "c"), map[string]string{
		pf: dims + "\n" + lines("  - id: new", "    when: {product: dim_customers, changes: new-key}", "    run: last 2",
			"  - id: wrong", "    when: {product: raw_events, changes: new-key}"),
		"pipelines/other.yaml": lines("blocks:", "  - id: b", "    product: dim_customers"),
		"pipelines/raw.yaml":   lines("blocks:", "  - id: c", "    product: raw_events")})
	p, probs := loadProject(t, writeProject(t, files))
	assertProblems(t, probs, []want{{pf, 15, "triggers[1].when.changes",
		"no dimension of pipeline p reads its keys from raw_events (its dynamic dimensions: customer (from dim_customers))"}})
	tr := p.Pipelines["p"].Trigger("new")
	if tr.Changes != ChangesNewKey || strings.Join(tr.Dims, ",") != "customer" || tr.Run.String() != "last 2" {
		t.Errorf("new-key trigger: %+v", tr)
	}
}
