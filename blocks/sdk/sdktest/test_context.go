package sdktest

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// ContextOption tunes NewContext.
type ContextOption func(*contextConfig)

type contextConfig struct {
	zone *time.Location
	vars map[string]string
	item *sdk.Item
}

// InZone puts the partition in zone (default UTC), as a pipeline's
// partitions: timezone does.
func InZone(zone *time.Location) ContextOption { return func(c *contextConfig) { c.zone = zone } }

// Vars sets the pipeline variables ctx.Var reads.
func Vars(vars map[string]string) ContextOption { return func(c *contextConfig) { c.vars = vars } }

// ForItem makes the context a dynamic child's, for the given item.
func ForItem(item sdk.Item) ContextOption { return func(c *contextConfig) { c.item = &item } }

var (
	dayKey   = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	monthKey = regexp.MustCompile(`^\d{4}-\d{2}$`)
	yearKey  = regexp.MustCompile(`^\d{4}$`)
	hourKey  = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}$`)
)

// NewContext is the *sdk.Context a block receives for a partition: a day
// (2024-03-10), an hour (2024-03-10T02), a month (2024-03) or a year
// (2024), in UTC unless InZone says otherwise; "" is an unpartitioned
// block's. Its logger writes to t.Log; Query and Product answer
// sdk.ErrNoWarehouse (a test hands the block its tables).
func NewContext(t testing.TB, partition string, opts ...ContextOption) *sdk.Context {
	t.Helper()
	cfg := contextConfig{zone: time.UTC}
	for _, o := range opts {
		o(&cfg)
	}
	p, err := partitionOf(partition, cfg.zone)
	if err != nil {
		t.Fatalf("sdktest.NewContext: %v", err)
	}
	return sdk.NewContext(t.Context(), sdk.ContextConfig{Partition: p, Item: cfg.item, Vars: cfg.vars,
		LogSink: func(level, msg string) { t.Logf("%s %s", level, msg) }})
}

func partitionOf(key string, zone *time.Location) (sdk.Partition, error) {
	p := sdk.Partition{Key: key, Zone: zone}
	parse := func(layout string) (time.Time, error) { return time.ParseInLocation(layout, key, zone) }
	var err error
	switch {
	case key == "":
		p.Interval = "none"
		return p, nil
	case hourKey.MatchString(key):
		p.Interval = "hour"
		p.Start, err = parse("2006-01-02T15")
		p.End = p.Start.Add(time.Hour)
	case dayKey.MatchString(key):
		p.Interval = "day"
		p.Start, err = parse("2006-01-02")
		p.End = p.Start.AddDate(0, 0, 1)
	case monthKey.MatchString(key):
		p.Interval = "month"
		p.Start, err = parse("2006-01")
		p.End = p.Start.AddDate(0, 1, 0)
	case yearKey.MatchString(key):
		p.Interval = "year"
		p.Start, err = parse("2006")
		p.End = p.Start.AddDate(1, 0, 0)
	default:
		return p, fmt.Errorf("partition %q: want a day (2024-03-10), an hour (2024-03-10T02), a month (2024-03), a year (2024) or \"\"", key)
	}
	if err != nil {
		return p, fmt.Errorf("partition %q: %w", key, err)
	}
	return p, nil
}
