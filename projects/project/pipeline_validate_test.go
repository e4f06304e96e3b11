package project

import "testing"

const pf = "pipelines/p.yaml"

// TestPipelineProblems loads one pipeline per case and asserts the exact set
// of problems: file, line, field and a message substring.
func TestPipelineProblems(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		pipeline string
		files    map[string]string
		want     []want
	}{
		{
			name:     "valid pipeline has no problem",
			pipeline: lines("blocks:", "  - id: a", "  - id: b", "    upstream: [a]"),
			files:    sqlBlocks("a", "b"),
		},
		{
			name:     "empty file is an empty pipeline",
			pipeline: "",
		},
		{
			name:     "unknown field with suggestion",
			pipeline: lines("blocks:", "  - id: a", "    upstrem: [b]", "  - id: b"),
			files:    sqlBlocks("a", "b"),
			want:     []want{{pf, 3, "blocks[0].upstrem", `unknown field "upstrem" (did you mean "upstream"?)`}},
		},
		{
			name:     "unknown field without a close match lists the fields",
			pipeline: lines("owner: me", "blocks: []"),
			want:     []want{{pf, 1, "owner", `unknown field "owner" (fields here: id, description, partitions`}},
		},
		{
			name:     "field written twice",
			pipeline: lines("concurrency: 2", "concurrency: 3"),
			want:     []want{{pf, 2, "concurrency", `field "concurrency" is written twice (first at line 1)`}},
		},
		{
			name:     "wrong field types",
			pipeline: lines("concurrency: four", "blocks:", "  - id: a", "    dynamic: yes", "    upstream: b", "  - id: b"),
			files:    sqlBlocks("a", "b"),
			want: []want{
				{pf, 1, "concurrency", `want a whole number, got "four"`},
				{pf, 4, "blocks[0].dynamic", `want true or false, got "yes"`},
				{pf, 5, "blocks[0].upstream", `want a list such as [a, b], got "b"`},
			},
		},
		{
			name:     "blocks is not a list",
			pipeline: lines("blocks:", "  a: {}"),
			want:     []want{{pf, 2, "blocks", "want a list of blocks"}},
		},
		{
			name:     "block written as a bare name",
			pipeline: lines("blocks:", "  - raw_orders"),
			want:     []want{{pf, 2, "blocks[0]", `want a block mapping such as "- id: raw_orders"`}},
		},
		{
			name:     "pipeline file is a list",
			pipeline: lines("- a", "- b"),
			want:     []want{{pf, 1, "", "want pipeline settings with fields id, description"}},
		},
		{
			name:     "missing id and bad id characters",
			pipeline: lines("blocks:", "  - file: blocks/a.sql", "  - id: Raw-Orders"),
			files:    sqlBlocks("a"),
			want: []want{
				{pf, 2, "blocks[0].id", "missing id"},
				{pf, 3, "blocks[1].id", `block id "Raw-Orders" is not valid: use lowercase letters, digits and underscores, starting with a letter (it becomes a SQL relation and a Go package name); try "raw_orders"`},
			},
		},
		{
			name:     "reserved id",
			pipeline: lines("blocks:", "  - id: order", "    file: blocks/a.sql"),
			files:    sqlBlocks("a"),
			want:     []want{{pf, 2, "blocks[0].id", `block id "order" is a reserved SQL keyword`}},
		},
		{
			name:     "duplicate block id names the first",
			pipeline: lines("blocks:", "  - id: a", "  - id: b", "  - id: a"),
			files:    sqlBlocks("a", "b"),
			want:     []want{{pf, 4, "blocks[2].id", `duplicate block id "a" (first at line 2)`}},
		},
		{
			name:     "pipeline id must match the file name",
			pipeline: lines("id: clv", "blocks: []"),
			want:     []want{{pf, 1, "id", `id "clv" does not match the file name pipelines/p.yaml`}},
		},
		{
			name:     "unknown upstream lists blocks and suggests",
			pipeline: lines("blocks:", "  - id: raw_orders", "  - id: customers", "  - id: clv", "    upstream: [raw_order, customers]"),
			files:    sqlBlocks("raw_orders", "customers", "clv"),
			want: []want{{pf, 5, "blocks[2].upstream[0]",
				`unknown upstream "raw_order" (blocks in this pipeline: raw_orders, customers; did you mean "raw_orders"?)`}},
		},
		{
			name:     "self dependency",
			pipeline: lines("blocks:", "  - id: a", "    upstream: [a]"),
			files:    sqlBlocks("a"),
			want:     []want{{pf, 3, "blocks[0].upstream[0]", `block "a" lists itself as upstream`}},
		},
		{
			name:     "upstream listed twice",
			pipeline: lines("blocks:", "  - id: a", "  - id: b", "    upstream: [a, a]"),
			files:    sqlBlocks("a", "b"),
			want:     []want{{pf, 4, "blocks[1].upstream[1]", `upstream "a" is listed twice`}},
		},
		{
			name:     "cycle of two",
			pipeline: lines("blocks:", "  - id: a", "    upstream: [b]", "  - id: b", "    upstream: [a]"),
			files:    sqlBlocks("a", "b"),
			want:     []want{{pf, 3, "blocks[0].upstream[0]", "cycle: a -> b -> a"}},
		},
		{
			name: "cycle of three behind a root",
			pipeline: lines("blocks:", "  - id: src", "  - id: a", "    upstream: [src, c]",
				"  - id: b", "    upstream: [a]", "  - id: c", "    upstream: [b]"),
			files: sqlBlocks("src", "a", "b", "c"),
			want:  []want{{pf, 4, "blocks[1].upstream[1]", "cycle: a -> b -> c -> a"}},
		},
		{
			name: "two dynamic parents",
			pipeline: lines("blocks:", "  - id: customers", "    dynamic: true", "  - id: regions", "    dynamic: true",
				"  - id: per_customer", "    upstream: [customers]", "  - id: joined", "    upstream: [per_customer, regions]"),
			files: sqlBlocks("customers", "regions", "per_customer", "joined"),
			want: []want{{pf, 9, "blocks[3].upstream",
				`two dynamic parents: "customers" (through upstream "per_customer") and "regions"`}},
		},
		{
			name: "a reduce may collect two fan-outs",
			pipeline: lines("blocks:", "  - id: a", "    dynamic: true", "  - id: b", "    dynamic: true",
				"  - id: r", "    upstream: [a, b]", "    reduce: true"),
			files: sqlBlocks("a", "b", "r"),
		},
		{
			name:     "reduce without a dynamic ancestor",
			pipeline: lines("blocks:", "  - id: a", "  - id: b", "    upstream: [a]", "    reduce: true"),
			files:    sqlBlocks("a", "b"),
			want:     []want{{pf, 5, "blocks[1].reduce", "reduce: true, but no upstream block runs under a dynamic block"}},
		},
		{
			name:     "reduce after a reduce has nothing left to collect",
			pipeline: lines("blocks:", "  - id: a", "    dynamic: true", "  - id: b", "    upstream: [a]", "  - id: r", "    upstream: [b]", "    reduce: true", "  - id: r2", "    upstream: [r]", "    reduce: true"),
			files:    sqlBlocks("a", "b", "r", "r2"),
			want:     []want{{pf, 11, "blocks[3].reduce", "no upstream block runs under a dynamic block"}},
		},
		{
			name:     "nested fan-out",
			pipeline: lines("blocks:", "  - id: a", "    dynamic: true", "  - id: b", "    upstream: [a]", "    dynamic: true"),
			files:    sqlBlocks("a", "b"),
			want:     []want{{pf, 6, "blocks[1].dynamic", `nested fan-out: "b" already runs once per row of dynamic block "a"`}},
		},
		{
			name: "partition, duration and retry settings",
			pipeline: lines(
				"partitions:",
				"  interval: daily",
				"  timezone: America/NewYork",
				`  start: "2020-13-01"`,
				"  week_start: mon",
				"timeout: 10",
				"retries: {attempts: -1, backoff: fast}",
				"blocks:",
				"  - id: a",
				"    partitions: {interval: fortnight, timezone: Local}",
				"    timeout: -5s",
				"    retries: {backoff: 1m, max_backoff: 10s}",
			),
			files: sqlBlocks("a"),
			want: []want{
				{pf, 2, "partitions.interval", `unknown interval "daily" (did you mean "day"?): want one of hour, day, week, month, quarter, year, none`},
				{pf, 3, "partitions.timezone", `unknown time zone "America/NewYork": want an IANA name`},
				{pf, 4, "partitions.start", `bad start "2020-13-01": want a date such as "2020-01-01"`},
				{pf, 5, "partitions.week_start", `unknown week_start "mon" (did you mean "monday"?)`},
				{pf, 6, "timeout", `bad duration "10": want a number with a unit, such as 30s, 5m or 1h30m`},
				{pf, 7, "retries.attempts", "attempts -1 is negative"},
				{pf, 7, "retries.backoff", `bad duration "fast"`},
				{pf, 10, "blocks[0].partitions.interval", `unknown interval "fortnight": want one of`},
				{pf, 10, "blocks[0].partitions.timezone", `time zone "Local" depends on the machine`},
				{pf, 11, "blocks[0].timeout", "duration -5s must be positive"},
				{pf, 12, "blocks[0].retries.max_backoff", "max_backoff 10s is shorter than backoff 1m0s"},
			},
		},
		{
			name:     "block backoff longer than the pipeline's max_backoff",
			pipeline: lines("retries: {max_backoff: 5s}", "blocks:", "  - id: a", "    retries: {backoff: 1m}"),
			files:    sqlBlocks("a"),
			want:     []want{{pf, 4, "blocks[0].retries.backoff", "backoff 1m0s is longer than max_backoff 5s (from the pipeline's retries)"}},
		},
		{
			name:     "partitions without interval",
			pipeline: lines("partitions:", "  timezone: UTC", "blocks: []"),
			want:     []want{{pf, 2, "partitions.interval", "missing interval: want one of hour, day"}},
		},
		{
			name:     "concurrency below one",
			pipeline: lines("concurrency: 0"),
			want:     []want{{pf, 1, "concurrency", "concurrency 0 runs nothing"}},
		},
		{
			name:     "concurrency beyond the bound",
			pipeline: lines("blocks: []", "concurrency: 100000"),
			want:     []want{{pf, 2, "concurrency", "concurrency 100000 is out of range: want between 1 and 1000 partitions at once"}},
		},
		{
			name:     "YAML syntax error in a flow list",
			pipeline: lines("blocks:", "  - id: a", "    upstream: [a", "  - id: b"),
			want:     []want{{pf, 3, "", "YAML syntax error: did not find expected ',' or ']'"}},
		},
		{
			name:     "YAML syntax error on the first line",
			pipeline: lines("a: b: c"),
			want:     []want{{pf, 1, "", "YAML syntax error: mapping values are not allowed in this context"}},
		},
		{
			name:     "YAML control character",
			pipeline: lines("description: ok", "blocks: []", "timeout: \x01"),
			want:     []want{{pf, 3, "", "YAML syntax error: control characters are not allowed"}},
		},
		{
			name:     "two YAML documents",
			pipeline: lines("blocks: []", "---", "blocks: []"),
			want:     []want{{pf, 2, "", "a second YAML document"}},
		},
		{
			name:     "variables must be scalars",
			pipeline: lines("variables:", "  currency: USD", "  list: [a]"),
			want:     []want{{pf, 3, "variables.list", "want a text, number or boolean value, got a list"}},
		},
		{
			name: "Export outputs no table",
			pipeline: lines("blocks:", "  - id: a", "  - id: e", "    upstream: [a]", "    dynamic: true", "    product: exported",
				"  - id: b", "    upstream: [e]"),
			files: with(sqlBlocks("a", "b"), map[string]string{"blocks/e/e.go": goBlock("e", EntryExport, 1)}),
			want: []want{
				{pf, 5, "blocks[1].dynamic", "an Export block outputs no rows to fan out over (Export is at blocks/e/e.go:5)"},
				{pf, 6, "blocks[1].product", "an Export block outputs no table to expose as a product"},
				{pf, 8, "blocks[2].upstream[0]", `upstream "e" is an Export block and outputs no table`},
			},
		},
		{
			name:     "bad product name",
			pipeline: lines("blocks:", "  - id: a", "    product: Daily-Metrics"),
			files:    sqlBlocks("a"),
			want:     []want{{pf, 3, "blocks[0].product", `product name "Daily-Metrics" is not valid`}},
		},
		{
			name:     "duplicate product in one pipeline",
			pipeline: lines("blocks:", "  - id: a", "    product: metrics", "  - id: b", "    product: metrics"),
			files:    sqlBlocks("a", "b"),
			want:     []want{{pf, 5, "blocks[1].product", `duplicate product "metrics": block "a" of pipeline "p" already exposes it (pipelines/p.yaml:3)`}},
		},
		{
			name:     "unknown kind",
			pipeline: lines("blocks:", "  - id: a", "    kind: SQL"),
			files:    sqlBlocks("a"),
			want:     []want{{pf, 3, "blocks[0].kind", `unknown kind "SQL" (did you mean "sql"?): want go or sql`}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := writeProject(t, with(c.files, map[string]string{pf: c.pipeline}))
			p, probs := loadProject(t, dir)
			assertProblems(t, probs, c.want)
			if pl := p.Pipelines["p"]; pl == nil {
				t.Fatal("pipeline p was not loaded")
			} else if len(pl.Problems) != len(probs) {
				t.Errorf("pipeline holds %d problems, project %d", len(pl.Problems), len(probs))
			}
		})
	}
}
