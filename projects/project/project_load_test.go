package project

import (
	"errors"
	"maps"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestLoadEffectiveSettings(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, map[string]string{
		"strata.yaml": lines(
			"name: shop",
			"timezone: Europe/Paris",
			"retention: 5",
			`kernel: {memory_limit: "512MiB", timeout: "10s", allow: [os/exec]}`,
			"variables: {env: prod, currency: EUR}",
		),
		"pipelines/clv.yaml": lines(
			"description: Customer lifetime value",
			`partitions: {interval: day, timezone: America/New_York, start: "2020-01-01", week_start: Sunday}`,
			"variables: {currency: USD}",
			"concurrency: 8",
			"retries: {attempts: 2, backoff: 2s, max_backoff: 1m}",
			"timeout: 20s",
			"blocks:",
			"  - id: raw_orders",
			"    file: blocks/raw_orders/raw_orders.go",
			"    kind: go",
			"  - id: customers",
			"    dynamic: true",
			"  - id: orders_by_customer",
			"    upstream: [raw_orders, customers]",
			"  - id: totals",
			"    upstream: [orders_by_customer]",
			"    reduce: true",
			"    product: daily_customer_metrics",
			"    partitions: {interval: week}",
			"    timeout: 30s",
			"    retries: {attempts: 3}",
		),
		"blocks/raw_orders/raw_orders.go":                 goBlock("raw_orders", EntryLoad, 0),
		"blocks/customers.sql":                            "select 1 as key\n",
		"blocks/orders_by_customer/orders_by_customer.go": goBlock("orders_by_customer", EntryTransform, 2),
		"blocks/totals/totals.go":                         goBlock("totals", EntryTransform, 1),
		"pipelines/empty.yaml":                            "",
	})
	p, probs := loadProject(t, dir)
	assertProblems(t, probs, nil)

	if p.Name != "shop" || p.Timezone != "Europe/Paris" || p.Retention != 5 {
		t.Errorf("project = %q %q %d", p.Name, p.Timezone, p.Retention)
	}
	if want := (KernelConfig{MemoryLimit: 512 << 20, Timeout: 10 * time.Second, Allow: []string{"os/exec"}}); !reflect.DeepEqual(p.Kernel, want) {
		t.Errorf("kernel = %+v, want %+v", p.Kernel, want)
	}
	if got := p.PipelineIDs(); !reflect.DeepEqual(got, []string{"clv", "empty"}) {
		t.Errorf("pipelines = %v", got)
	}

	pl := p.Pipelines["clv"]
	daily := PartitionConfig{Interval: "day", Timezone: "America/New_York", Start: "2020-01-01", WeekStart: "sunday"}
	retries := RetryPolicy{Attempts: 2, Backoff: 2 * time.Second, MaxBackoff: time.Minute}
	if pl.ID != "clv" || pl.File != "pipelines/clv.yaml" || pl.Description != "Customer lifetime value" ||
		pl.Concurrency != 8 || pl.Timeout != 20*time.Second || !reflect.DeepEqual(pl.Partitions, daily) || pl.Retries != retries {
		t.Errorf("pipeline = %+v", pl)
	}
	if want := map[string]string{"env": "prod", "currency": "USD"}; !maps.Equal(pl.Variables, want) {
		t.Errorf("variables = %v, want %v", pl.Variables, want)
	}
	if p.Variables["currency"] != "EUR" {
		t.Errorf("pipeline variables leaked into the project: %v", p.Variables)
	}

	raw := pl.Block("raw_orders")
	if !reflect.DeepEqual(raw.Partitions, daily) || raw.Timeout != 20*time.Second || raw.Retries != retries || raw.Entry != EntryLoad {
		t.Errorf("raw_orders = %+v", raw)
	}
	weekly := daily
	weekly.Interval = "week"
	totals := pl.Block("totals")
	if !reflect.DeepEqual(totals.Partitions, weekly) || totals.Timeout != 30*time.Second ||
		totals.Retries != (RetryPolicy{Attempts: 3, Backoff: 2 * time.Second, MaxBackoff: time.Minute}) ||
		totals.Product != "daily_customer_metrics" || !totals.Reduce || totals.FanOut != "" {
		t.Errorf("totals = %+v", totals)
	}
	if got := pl.Block("orders_by_customer").FanOut; got != "customers" {
		t.Errorf("orders_by_customer fans out under %q, want customers", got)
	}
	if owner, b := p.Product("daily_customer_metrics"); owner != pl || b != totals {
		t.Errorf("Product = %v, %v", owner, b)
	}
}

func TestLoadDefaults(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, map[string]string{
		"strata.yaml":      "",
		"pipelines/p.yaml": lines("blocks:", "  - id: a", "    retries: {backoff: 1m}"),
		"blocks/a.sql":     "select 1\n",
	})
	p, probs := loadProject(t, dir)
	assertProblems(t, probs, nil)
	if p.Name != filepath.Base(dir) || p.Timezone != "UTC" || p.Retention != 3 {
		t.Errorf("project = %q %q %d", p.Name, p.Timezone, p.Retention)
	}
	if want := (KernelConfig{MemoryLimit: 2 << 30, Timeout: time.Minute}); !reflect.DeepEqual(p.Kernel, want) {
		t.Errorf("kernel = %+v, want %+v", p.Kernel, want)
	}
	pl := p.Pipelines["p"]
	if want := (PartitionConfig{Interval: "none", Timezone: "UTC", WeekStart: "monday"}); !reflect.DeepEqual(pl.Partitions, want) {
		t.Errorf("partitions = %+v, want %+v", pl.Partitions, want)
	}
	if pl.Concurrency != 4 || pl.Timeout != time.Minute || pl.Retries != (RetryPolicy{Backoff: time.Second, MaxBackoff: 30 * time.Second}) {
		t.Errorf("pipeline = %+v", pl)
	}
	// An unset max_backoff grows to a longer backoff instead of failing.
	if got := pl.Block("a").Retries; got != (RetryPolicy{Backoff: time.Minute, MaxBackoff: time.Minute}) {
		t.Errorf("block retries = %+v", got)
	}
}

func TestLoadWithoutProjectFile(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{t.TempDir(), filepath.Join(t.TempDir(), "missing")} {
		p, err := Load(dir)
		if p != nil || !errors.Is(err, ErrNotProject) {
			t.Fatalf("Load(%s) = %v, %v; want ErrNotProject", dir, p, err)
		}
		if want := `run "strata init ` + dir + `"`; !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %s", err, want)
		}
	}
}

func TestProjectFileProblems(t *testing.T) {
	t.Parallel()
	const sf = ProjectFile
	cases := []struct {
		name    string
		project string
		want    []want
	}{
		{
			name: "every setting wrong",
			project: lines(
				`name: ""`,
				"timezone: Mars/Olympus",
				"retention: 0",
				"kernel:",
				"  memory_limit: 2 gigs",
				"  timeout: 0s",
				"  allow: [os/exec, net/http, unsafe, os/exec]",
				"variables: [a]",
				"colour: red",
			),
			want: []want{
				{sf, 1, "name", "empty name"},
				{sf, 2, "timezone", `unknown time zone "Mars/Olympus"`},
				{sf, 3, "retention", "retention 0 keeps no version: want at least 1"},
				{sf, 5, "kernel.memory_limit", `bad size "2 gigs": want a number with a unit, such as 512MiB or 2GiB`},
				{sf, 6, "kernel.timeout", "duration 0s must be positive"},
				{sf, 7, "kernel.allow[1]", `import "net/http" cannot be allowed: want some of os/exec, unsafe, syscall, plugin`},
				{sf, 7, "kernel.allow[3]", `import "os/exec" is listed twice`},
				{sf, 8, "variables", "want a mapping of names to values, got a list"},
				{sf, 9, "colour", `unknown field "colour" (fields here: name, timezone, retention, kernel, variables, extensions, secrets, alerts, warehouse, login)`},
			},
		},
		{
			name:    "typos get suggestions",
			project: lines("timezone: America/New York", "kernal: {}", "kernel: {alow: [unsafe]}"),
			want: []want{
				{sf, 1, "timezone", `unknown time zone "America/New York" (did you mean "America/New_York"?)`},
				{sf, 2, "kernal", `unknown field "kernal" (did you mean "kernel"?)`},
				{sf, 3, "kernel.alow", `unknown field "alow" (did you mean "allow"?)`},
			},
		},
		{
			name:    "memory limit too small",
			project: lines("kernel:", "  memory_limit: 1MiB"),
			want:    []want{{sf, 2, "kernel.memory_limit", "memory_limit 1MiB is too small"}},
		},
		{
			name:    "syntax error",
			project: lines("name: shop", "kernel:", "  timeout: [10s"),
			want:    []want{{sf, 3, "", "YAML syntax error"}},
		},
		{
			name:    "not a mapping",
			project: lines("- shop"),
			want:    []want{{sf, 1, "", "want project settings with fields name, timezone"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, probs := loadProject(t, writeProject(t, map[string]string{ProjectFile: c.project}))
			assertProblems(t, probs, c.want)
		})
	}
}

func TestPipelineFileNames(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, map[string]string{
		"pipelines/old.yml":       "blocks: []\n",
		"pipelines/Bad Name.yaml": "blocks: []\n",
		"pipelines/.#p.yaml":      "not: [yaml\n",
		"pipelines/README.md":     "# pipelines\n",
		"pipelines/good.yaml":     "blocks: []\n",
	})
	p, probs := loadProject(t, dir)
	assertProblems(t, probs, []want{
		{"pipelines/old.yml", 0, "", "pipeline files end in .yaml: rename it pipelines/old.yaml"},
		{"pipelines/Bad Name.yaml", 0, "", `pipeline id "Bad Name" is not valid`},
	})
	if got := p.PipelineIDs(); !reflect.DeepEqual(got, []string{"Bad Name", "good"}) {
		t.Errorf("pipelines = %v", got)
	}
}

func TestProductsAcrossPipelines(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, with(sqlBlocks("x", "y"), map[string]string{
		"pipelines/a.yaml": lines("blocks:", "  - id: x", "    product: metrics"),
		"pipelines/b.yaml": lines("blocks:", "  - id: y", "", "    product: metrics"),
	}))
	p, probs := loadProject(t, dir)
	assertProblems(t, probs, []want{{"pipelines/b.yaml", 4, "blocks[0].product",
		`duplicate product "metrics": block "x" of pipeline "a" already exposes it (pipelines/a.yaml:3); product names are global to the project`}})
	if len(p.Pipelines["a"].Problems) != 0 || len(p.Pipelines["b"].Problems) != 1 {
		t.Errorf("problems of a = %v, of b = %v", p.Pipelines["a"].Problems, p.Pipelines["b"].Problems)
	}

	// Reloading one pipeline checks it against the others.
	pl, err := LoadPipeline(p, "pipelines/a.yaml")
	var reload Problems
	if !errors.As(err, &reload) || pl == nil {
		t.Fatalf("LoadPipeline = %v, %v", pl, err)
	}
	assertProblems(t, reload, []want{{"pipelines/a.yaml", 3, "blocks[0].product",
		`duplicate product "metrics": block "y" of pipeline "b" already exposes it (pipelines/b.yaml:4)`}})
}

func TestLoadPipelineErrors(t *testing.T) {
	t.Parallel()
	p, _ := loadProject(t, writeProject(t, map[string]string{"blocks/a.sql": "select 1\n"}))
	cases := []struct {
		file string
		is   error
		msg  string
	}{
		{"pipelines/missing.yaml", nil, "no such file"},
		{"../pipelines/x.yaml", ErrUnsafePath, "climbs out"},
		{"blocks/a.sql", nil, "want a file pipelines/<id>.yaml"},
	}
	for _, c := range cases {
		pl, err := LoadPipeline(p, c.file)
		var probs Problems
		if pl != nil || err == nil || errors.As(err, &probs) {
			t.Errorf("LoadPipeline(%s) = %v, %v; want a plain error", c.file, pl, err)
			continue
		}
		if (c.is != nil && !errors.Is(err, c.is)) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("LoadPipeline(%s) error = %v, want %q", c.file, err, c.msg)
		}
	}
}

// A block file shared by two pipelines is reported once in the project.
func TestSharedBrokenBlockReportedOnce(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, map[string]string{
		"pipelines/a.yaml":        lines("blocks:", "  - id: shared"),
		"pipelines/b.yaml":        lines("blocks:", "  - id: shared"),
		"blocks/shared/shared.go": "package shared\n\nfunc Load( {\n",
	})
	p, probs := loadProject(t, dir)
	assertProblems(t, probs, []want{{"blocks/shared/shared.go", 3, "", "syntax error"}})
	if len(p.Pipelines["a"].Problems) != 1 || len(p.Pipelines["b"].Problems) != 1 {
		t.Errorf("each pipeline should carry the problem of its block file")
	}
}

func TestProblemsError(t *testing.T) {
	t.Parallel()
	ps := Problems{
		{File: "pipelines/clv.yaml", Line: 14, Column: 15, Field: "blocks[2].upstream[0]", Message: `unknown upstream "raw_order"`},
		{File: "strata.yaml", Message: "missing"},
		{File: "blocks/a.sql", Line: 1, Message: "empty SQL file"},
	}
	want := "pipelines/clv.yaml:14:15: blocks[2].upstream[0]: unknown upstream \"raw_order\"\nstrata.yaml: missing\nblocks/a.sql:1: empty SQL file"
	if got := ps.Error(); got != want {
		t.Errorf("Error() =\n%s\nwant\n%s", got, want)
	}
	if Problems(nil).Err() != nil {
		t.Error("empty Problems must give a nil error")
	}
	if got := ps.ForFile("strata.yaml"); len(got) != 1 || got[0].Message != "missing" {
		t.Errorf("ForFile = %v", got)
	}
}

// A product belongs to the pipeline the warehouse recorded, whatever the
// file order: the other declaring pipeline is the broken one, naming both
// files; a recorded owner that no longer declares it keeps it from the
// others; Product answers the owner.
func TestRecordedOwnerDecidesAProduct(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, with(sqlBlocks("x", "y"), map[string]string{
		"pipelines/copy.yaml": lines("blocks:", "  - id: x", "    product: sales"),
		"pipelines/main.yaml": lines("blocks:", "  - id: y", "    product: sales"),
	}))
	p, _ := loadProject(t, dir)
	if len(p.Pipelines["main"].Problems) != 1 {
		t.Fatalf("without a record, the first in file order holds it: main %v", p.Pipelines["main"].Problems)
	}
	p.SetProductOwners(map[string]string{"sales": "main"})
	if len(p.Pipelines["main"].Problems) != 0 || len(p.Pipelines["copy"].Problems) != 1 {
		t.Fatalf("problems of main = %v, of copy = %v", p.Pipelines["main"].Problems, p.Pipelines["copy"].Problems)
	}
	msg := p.Pipelines["copy"].Problems[0].Message
	for _, w := range []string{"pipelines/main.yaml:3", "pipelines/copy.yaml", "first published it", "strata products transfer " + p.Dir + " sales --to copy"} {
		if !strings.Contains(msg, w) {
			t.Errorf("copy's problem %q lacks %q", msg, w)
		}
	}
	if pl, _ := p.Product("sales"); pl == nil || pl.ID != "main" {
		t.Errorf("Product(sales) = %v, want main", pl)
	}
	if len(p.Problems) != 1 || p.Problems[0].File != "pipelines/copy.yaml" {
		t.Errorf("project problems %v", p.Problems)
	}
	if pl, err := LoadPipeline(p, "pipelines/main.yaml"); err != nil || len(pl.Problems) != 0 {
		t.Errorf("reloading the owner: %v %v", pl, err)
	}
	p.SetProductOwners(map[string]string{"sales": "gone"})
	if len(p.Pipelines["main"].Problems) != 1 || len(p.Pipelines["copy"].Problems) != 1 ||
		!strings.Contains(p.Pipelines["copy"].Problems[0].Message, `belongs to pipeline "gone"`) {
		t.Errorf("with an owner that no longer declares it: main %v, copy %v", p.Pipelines["main"].Problems, p.Pipelines["copy"].Problems)
	}
}
