package engine

// A small daily pipeline: a Go loader whose failures a test switches on with
// the fail_on variable, a SQL aggregate, and a weekly SQL rollup.
const dailyPipeline = `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
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

const srcBlock = `package src

import (
	"errors"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	if ctx.Var("fail_on", "") == ctx.Partition.Key {
		return nil, errors.New("boom on " + ctx.Partition.Key)
	}
	t := sdk.NewTable(sdk.String("day"), sdk.Int64("x"))
	for i := 0; i < ctx.Partition.Start.Day(); i++ {
		t.Append(ctx.Partition.Key, int64(i))
	}
	return t, nil
}
`

const aggBlock = `SELECT count(*) AS n, sum(x) AS s, $partition_key AS day FROM src`

const weeklyBlock = `SELECT sum(n) AS n, count(*) AS days, $partition_key AS week FROM agg`

func dailyFiles(failOn string) map[string]string {
	return map[string]string{
		"pipelines/p.yaml":  sprintf(dailyPipeline, failOn),
		"blocks/src/src.go": srcBlock,
		"blocks/agg.sql":    aggBlock,
		"blocks/weekly.sql": weeklyBlock,
	}
}

// A fan-out: items is dynamic (one row per child), work runs per child and
// fails for fail_key, total reduces the children.
const fanPipeline = `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
variables: {items: "%d", fail_key: "%s"}
blocks:
  - id: items
    dynamic: true
  - id: work
    upstream: [items]
  - id: total
    upstream: [work]
    reduce: true
`

const itemsBlock = `package items

import (
	"fmt"
	"strconv"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	n, err := strconv.Atoi(ctx.Var("items", "3"))
	if err != nil {
		return nil, err
	}
	t := sdk.NewTable(sdk.String("key"), sdk.Int64("v"))
	for i := 0; i < n; i++ {
		t.Append(fmt.Sprintf("k%d", i), int64(i))
	}
	return t, nil
}
`

const workBlock = `package work

import (
	"errors"

	"github.com/stratahq/strata/blocks/sdk"
)

func Transform(ctx *sdk.Context, item *sdk.Table) (*sdk.Table, error) {
	if ctx.Item.Key == ctx.Var("fail_key", "") {
		return nil, errors.New("child " + ctx.Item.Key + " failed")
	}
	t := sdk.NewTable(sdk.String("key"), sdk.Int64("double"))
	t.Append(ctx.Item.Key, item.Column("v").Int64s()[0]*2)
	return t, nil
}
`

const totalBlock = `package total

import "github.com/stratahq/strata/blocks/sdk"

func Transform(ctx *sdk.Context, work *sdk.Table) (*sdk.Table, error) {
	var sum int64
	for _, v := range work.Column("double").Int64s() {
		sum += v
	}
	t := sdk.NewTable(sdk.Int64("children"), sdk.Int64("sum"))
	t.Append(work.Len(), sum)
	return t, nil
}
`

func fanFiles(items int, failKey string) map[string]string {
	return map[string]string{
		"pipelines/fan.yaml":    sprintf(fanPipeline, items, failKey),
		"blocks/items/items.go": itemsBlock,
		"blocks/work/work.go":   workBlock,
		"blocks/total/total.go": totalBlock,
	}
}
