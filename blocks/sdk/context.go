package sdk

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Partition is the slice of time a run computes: [Start, End) in the
// pipeline's zone. A day in America/New_York lasts 23 or 25 hours on DST days,
// so use End rather than Start plus 24 hours.
//
// A pipeline partitioned by more than time (day × region, customer) runs one
// cell at a time: Key is the cell's key ("2024-03-10|eu"), TimeKey its time
// part ("2024-03-10"; empty without a time dimension) and Dims the value of
// each other dimension, in declared order. Value(name) reads one.
type Partition struct {
	Key      string    // stable key: "2024-03-10", "2024-W10", "2024-03", "2024-Q1", "2024-03-10T02", "2024-03-10|eu"
	Start    time.Time // inclusive, in Zone
	End      time.Time // exclusive, in Zone
	Interval string    // hour, day, week, month, quarter, year or none
	Zone     *time.Location
	TimeKey  string // the time part of Key: Key itself for a time-only pipeline
	Dims     []Dim  // the other dimensions' values; nil for a time-only pipeline
}

// Dim is one dimension's value in a partition: region=eu.
type Dim struct {
	Name  string
	Value string
}

// Value returns the value of the dimension named name ("" when the
// pipeline has no such dimension).
func (p Partition) Value(name string) string {
	for _, d := range p.Dims {
		if d.Name == name {
			return d.Value
		}
	}
	return ""
}

// Duration is End minus Start.
func (p Partition) Duration() time.Duration { return p.End.Sub(p.Start) }

// Contains reports whether t falls inside the partition.
func (p Partition) Contains(t time.Time) bool { return !t.Before(p.Start) && t.Before(p.End) }

// Item is the dynamic parent's row a child run was spawned for.
type Item struct {
	Key    string         // the row's "key" column, else its index
	Index  int            // position of the row in the parent's output
	Values map[string]any // the whole row by column name
}

// Window selects partitions of a product: one, the last N, a range of keys
// (both ends inclusive) or a calendar period such as "2024-Q1".
type Window struct {
	Partition string `json:"partition,omitempty"`
	Last      int    `json:"last,omitempty"`
	From      string `json:"from,omitempty"`
	To        string `json:"to,omitempty"`
	Period    string `json:"period,omitempty"`
}

// One selects a single partition.
func One(key string) Window { return Window{Partition: key} }

// Last selects the latest n partitions.
func Last(n int) Window { return Window{Last: n} }

// Range selects the partitions from one key to another, both included.
func Range(from, to string) Window { return Window{From: from, To: to} }

// Period selects the partitions inside a calendar period ("2024-03", "2024-Q1", "2024").
func Period(p string) Window { return Window{Period: p} }

// Host answers what a block asks of the coordinator. The kernel implements it
// over its protocol; a test can implement it directly.
type Host interface {
	Query(ctx context.Context, sql string, args ...any) (*Table, error)
	Product(ctx context.Context, name string, w Window) (*Table, error)
}

// ErrNoWarehouse is returned by Query and Product when the run has no
// warehouse behind it (for example `strata exec` outside a project).
var ErrNoWarehouse = errors.New("no warehouse: this run is not attached to a project")

// Context is a block's first argument: the partition it computes, the dynamic
// item, the pipeline's variables, a logger that streams to the UI, and
// cancellation (it is a context.Context: check Done in long loops).
type Context struct {
	context.Context
	Partition Partition
	Item      *Item             // nil unless the block runs under a dynamic parent
	Vars      map[string]string // pipeline variables
	Log       *Logger

	host      Host
	state     *State
	exportKey ExportKey
}

// ContextConfig is what the kernel fills to make a Context.
type ContextConfig struct {
	Partition Partition
	Item      *Item
	Vars      map[string]string
	Host      Host
	LogSink   func(level, msg string)
	// State is the block's incremental state (context_state.go); nil: an
	// empty one.
	State *State
	// ExportKey is an Export block's idempotency key (context_state.go).
	ExportKey ExportKey
}

// NewContext returns a Context for one run.
func NewContext(parent context.Context, cfg ContextConfig) *Context {
	if parent == nil {
		parent = context.Background()
	}
	vars := cfg.Vars
	if vars == nil {
		vars = map[string]string{}
	}
	st := cfg.State
	if st == nil {
		st = NewState(nil)
	}
	return &Context{
		Context:   parent,
		Partition: cfg.Partition,
		Item:      cfg.Item,
		Vars:      vars,
		Log:       &Logger{sink: cfg.LogSink},
		host:      cfg.Host,
		state:     st,
		exportKey: cfg.ExportKey,
	}
}

// State is the block's incremental state, stored with the version it
// publishes (context_state.go).
func (c *Context) State() *State { return c.state }

// ExportKey is an Export block's idempotency key: (product, partition,
// version), the same for every retry of one export. It is zero for other
// blocks and outside a project.
func (c *Context) ExportKey() ExportKey { return c.exportKey }

// Var returns a pipeline variable, or def when it is not set.
func (c *Context) Var(name, def string) string {
	if v, ok := c.Vars[name]; ok {
		return v
	}
	return def
}

// Query runs read-only DuckDB SQL over the warehouse; products are relations
// named by block id. Parameters bind to ? or $1 placeholders.
func (c *Context) Query(sql string, args ...any) (*Table, error) {
	if c.host == nil {
		return nil, ErrNoWarehouse
	}
	return c.host.Query(c, sql, args...)
}

// Product reads a window of a global data product.
func (c *Context) Product(name string, w Window) (*Table, error) {
	if c.host == nil {
		return nil, ErrNoWarehouse
	}
	return c.host.Product(c, name, w)
}

// SecretHost is a Host that hands out the project's secrets (the kernel's
// does; a test's Host may not).
type SecretHost interface {
	Secret(ctx context.Context, name string) (string, error)
}

// Secret returns the value of the project's secret name (strata.yaml
// secrets:), read at the moment of the call. Strata masks the value as ***
// wherever the run's logs, printed output, errors and output tables show
// it; keep it out of anything else the block writes.
func (c *Context) Secret(name string) (string, error) {
	h, ok := c.host.(SecretHost)
	if !ok {
		return "", fmt.Errorf("secret %q: %w", name, ErrNoWarehouse)
	}
	return h.Secret(c, name)
}

// Logger streams a block's log lines to the run's log and the editor.
type Logger struct {
	sink func(level, msg string)
}

// Info logs at info level; kv are key/value pairs appended as k=v.
func (l *Logger) Info(msg string, kv ...any) { l.log("info", msg, kv) }

// Warn logs at warn level.
func (l *Logger) Warn(msg string, kv ...any) { l.log("warn", msg, kv) }

// Error logs at error level; it does not fail the run.
func (l *Logger) Error(msg string, kv ...any) { l.log("error", msg, kv) }

// Printf logs a formatted line at info level.
func (l *Logger) Printf(format string, args ...any) { l.log("info", fmt.Sprintf(format, args...), nil) }

func (l *Logger) log(level, msg string, kv []any) {
	for i := 0; i < len(kv); i += 2 {
		if i+1 < len(kv) {
			msg += fmt.Sprintf(" %v=%v", kv[i], kv[i+1])
		} else {
			msg += fmt.Sprintf(" %v", kv[i])
		}
	}
	if l == nil || l.sink == nil {
		return
	}
	l.sink(level, msg)
}
