package project

import (
	"reflect"
	"testing"
)

func TestDimensionConfig(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		pipeline string
		want     PartitionConfig
	}{
		{
			name:     "today's form is the time dimension alone",
			pipeline: lines("partitions:", "  interval: day", "  timezone: UTC"),
			want:     PartitionConfig{Interval: "day", Timezone: "UTC", WeekStart: "monday"},
		},
		{
			name: "time at the top, value dimensions in the list",
			pipeline: lines("partitions:", "  interval: day", "  timezone: UTC", "  dimensions:",
				"    - name: region", "      values: [us, eu, apac]",
				"    - name: customer", "      from: {product: dim_customers, column: customer_id}"),
			want: PartitionConfig{Interval: "day", Timezone: "UTC", WeekStart: "monday", Dims: []DimConfig{
				{Name: "region", Values: []string{"us", "eu", "apac"}, Line: 5},
				{Name: "customer", Product: "dim_customers", Column: "customer_id", Line: 7},
			}},
		},
		{
			name: "time declared in the list, second",
			pipeline: lines("partitions:", "  dimensions:", "    - name: region", "      values: [us, eu]",
				"    - name: day", "      interval: day", "      timezone: Europe/Berlin", "      start: 2024-01-01"),
			want: PartitionConfig{Interval: "day", Timezone: "Europe/Berlin", Start: "2024-01-01", WeekStart: "monday",
				TimeName: "day", TimePos: 1, Dims: []DimConfig{{Name: "region", Values: []string{"us", "eu"}, Line: 3}}},
		},
		{
			name:     "no time dimension",
			pipeline: lines("partitions:", "  dimensions:", "    - name: region", "      values: [us, eu]"),
			want: PartitionConfig{Interval: "none", Timezone: "UTC", WeekStart: "monday",
				Dims: []DimConfig{{Name: "region", Values: []string{"us", "eu"}, Line: 3}}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p, probs := loadProject(t, writeProject(t, map[string]string{pf: c.pipeline}))
			assertProblems(t, probs, nil)
			if got := p.Pipelines["p"].Partitions; !reflect.DeepEqual(got, c.want) {
				t.Fatalf("partitions\n got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

// TestDimensionInheritedByBlocks: a weekly rollup in a day × region
// pipeline is week × region.
func TestDimensionInheritedByBlocks(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, with(sqlBlocks("a", "w"), map[string]string{pf: lines("partitions:", "  interval: day", "  dimensions:",
		"    - name: region", "      values: [us, eu]", "blocks:", "  - id: a", "  - id: w", "    upstream: [a]", "    partitions: {interval: week}")}))
	p, probs := loadProject(t, dir)
	assertProblems(t, probs, nil)
	w := p.Pipelines["p"].Block("w").Partitions
	if w.Interval != "week" || len(w.Dims) != 1 || w.Dims[0].Name != "region" {
		t.Fatalf("block w partitions %+v", w)
	}
}

func TestDimensionProblems(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		pipeline string
		want     []want
	}{
		{
			name:     "not a list",
			pipeline: lines("partitions:", "  interval: day", "  dimensions: region"),
			want:     []want{{pf, 3, "partitions.dimensions", `want a list of dimensions (each with a name and one of interval, values or from), got "region"`}},
		},
		{
			name:     "two time dimensions",
			pipeline: lines("partitions:", "  dimensions:", "    - name: day", "      interval: day", "    - name: hour", "      interval: hour"),
			want:     []want{{pf, 5, "partitions.dimensions[1]", `dimension "hour" is a second time dimension (the first is "day"): a pipeline has at most one`}},
		},
		{
			name:     "time fields both at the top and in a time dimension",
			pipeline: lines("partitions:", "  interval: day", "  dimensions:", "    - name: day", "      interval: day"),
			want:     []want{{pf, 2, "partitions.interval", `interval is written both here and in time dimension "day": write it once, in the dimension`}},
		},
		{
			name:     "no kind",
			pipeline: lines("partitions:", "  interval: day", "  dimensions:", "    - name: region"),
			want:     []want{{pf, 4, "partitions.dimensions[0]", `dimension "region": want exactly one of interval (time), values (static) or from (dynamic), got 0`}},
		},
		{
			name:     "two kinds",
			pipeline: lines("partitions:", "  interval: day", "  dimensions:", "    - name: region", "      values: [us]", "      from: {product: p, column: c}"),
			want:     []want{{pf, 4, "partitions.dimensions[0]", "got 2"}},
		},
		{
			name:     "bad name, duplicate name, bad values",
			pipeline: lines("partitions:", "  interval: day", "  dimensions:", "    - name: 2region", "      values: [a]", "    - name: tier", "      values: [gold, 'x|y', gold]", "    - name: tier", "      values: []"),
			want: []want{
				{pf, 4, "partitions.dimensions[0].name", `dimension name "2region" is not an identifier`},
				{pf, 7, "partitions.dimensions[1].values[1]", `dimension "tier": value "x|y" contains "|"`},
				{pf, 7, "partitions.dimensions[1].values[2]", `dimension "tier" lists "gold" twice (first at line 7)`},
				{pf, 8, "partitions.dimensions[2].name", `dimension "tier" is declared twice (first at line 6)`},
				{pf, 9, "partitions.dimensions[2].values", `dimension "tier" has no values`},
			},
		},
		{
			name:     "dynamic without a column",
			pipeline: lines("partitions:", "  interval: day", "  dimensions:", "    - name: customer", "      from: {product: dim_customers}"),
			want:     []want{{pf, 5, "partitions.dimensions[0].from.column", "missing column: a dynamic dimension reads its values from a product's column"}},
		},
		{
			name:     "time fields on a value dimension",
			pipeline: lines("partitions:", "  interval: day", "  dimensions:", "    - name: region", "      values: [us]", "      timezone: UTC"),
			want:     []want{{pf, 6, "partitions.dimensions[0].timezone", `timezone belongs to a time dimension (one with an interval); dimension "region" has none`}},
		},
		{
			name: "dimensions on a block",
			pipeline: lines("partitions:", "  interval: day", "blocks:", "  - id: a", "    partitions:", "      interval: week",
				"      dimensions: [{name: region, values: [us]}]"),
			want: []want{{pf, 7, "blocks[0].partitions.dimensions", "dimensions are set for the whole pipeline"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{pf: c.pipeline, "blocks/a.sql": "select 1 as x\n"}
			_, probs := loadProject(t, writeProject(t, files))
			assertProblems(t, probs, c.want)
		})
	}
}
