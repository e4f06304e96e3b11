package project

import (
	"maps"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// MaxConcurrency bounds a pipeline's and a backfill's concurrency: more
// partitions at once is more goroutines and kernel queue than any pool
// serves, and a pipeline file asking for 100000 is a typo.
const MaxConcurrency = 1000

// Defaults applied when a pipeline file leaves a setting out.
const (
	DefaultConcurrency = 4
	DefaultBackoff     = time.Second
	DefaultMaxBackoff  = 30 * time.Second
	DefaultWeekStart   = "monday"
)

// Block kinds.
const (
	KindGo  = "go"
	KindSQL = "sql"
)

// Pipeline is one pipelines/<id>.yaml file: blocks wired by their upstream
// lists, with partitioning, concurrency and retry settings. Every setting is
// effective: values a block or pipeline leaves out are already filled from the
// pipeline or project, so the engine never re-applies inheritance.
type Pipeline struct {
	ID          string            // file name without .yaml
	File        string            // slash-separated, relative to the project folder
	Description string            // free text for the UI
	EndNote     string            // markdown shown after the last block's cell: the notebook's closing text
	Partitions  PartitionConfig   // interval "none" when the file has no partitions
	Variables   map[string]string // the project's variables overlaid by the pipeline's
	Concurrency int               // partitions run at once in a backfill
	Retries     RetryPolicy       // default of the blocks
	Timeout     time.Duration     // default limit of one block run; the kernel timeout when unset
	Blocks      []*Block          // in file order; blocks without an id or with a repeated id are left out
	Checks      []ReviewCheck     // product-level checks gating a reviewed backfill's promotion
	Triggers    []*Trigger        // in file order; what launches the pipeline besides a person
	// TriggerProblems are event triggers that name a product no pipeline
	// exposes, or close a loop of pipelines triggering each other. They
	// depend on the other pipelines, so they disable the trigger (and are
	// project problems) without keeping the pipeline itself from running,
	// also from a snapshot that holds this pipeline alone.
	TriggerProblems Problems
	Reads           []*ProductRead // global products its blocks read, with their freshness
	Problems        Problems       // problems of this pipeline and of the block files it uses
	// own are the problems of its files alone; Problems adds the product
	// names it cannot have (another pipeline owns them).
	own Problems
}

// RetryPolicy says how often and how patiently a failed block run is retried.
type RetryPolicy struct {
	Attempts   int           // retries after the first failure; 0 means none
	Backoff    time.Duration // wait before the first retry; doubles each retry
	MaxBackoff time.Duration // cap of the wait; at least Backoff
}

// Block is one step of a pipeline and the file holding its source.
type Block struct {
	ID         string          // [a-z][a-z0-9_]*; the SQL relation and Go package name
	File       string          // slash-separated, relative to the project folder
	Path       string          // absolute path of File
	Kind       string          // KindGo or KindSQL; "" when no file was found
	Upstream   []string        // ids of blocks in this pipeline; their order is the parameter order
	Dynamic    bool            // each output row spawns a child run of the downstream blocks
	Reduce     bool            // receives the union of the outputs of a dynamic block's children
	FanOut     string          // id of the dynamic block this block runs one child per row of; "" when it runs once
	Product    string          // global product name the output is exposed as; "" when none
	Key        []string        // the output's key columns: rows with the same key are one row to a diff; nil: whole rows
	Partitions PartitionConfig // effective: the block's override applied over the pipeline's
	Timeout    time.Duration   // effective limit of one run
	Retries    RetryPolicy     // effective retry policy
	Entry      string          // Go: "Load", "Transform" or "Export"; "" for SQL or when not found
	HasCheck   bool            // the Go package defines Check(ctx, out *sdk.Table) error
	Line       int             // line of the block in the pipeline file
	Note       string          // markdown shown above the block's cell: the notebook's text between blocks
	// Batch is the most partitions a SQL block computes in one run
	// (batch: {max: N}); 0 when it computes one at a time.
	Batch int
	// BatchAcross are the value dimensions a batch spans too
	// (batch: {max: N, across: [customer]}): one query computes the
	// window's time partitions for every selected value of them.
	BatchAcross []string

	index   int              // position in the file's blocks list, for field paths
	node    *yaml.Node       // the block's mapping
	fields  map[string]entry // its fields as written
	upNodes []*yaml.Node     // one per Upstream element
	tables  int              // *sdk.Table parameters of the Go entry; -1 when unknown
	entryAt string           // file:line of the Go entry, for messages
}

var pipelineFields = []string{"id", "description", "partitions", "variables", "concurrency", "retries", "timeout", "blocks", "triggers", "checks", "reads", "end_note"}
var blockFields = []string{"id", "note", "file", "kind", "upstream", "dynamic", "reduce", "product", "key", "partitions", "timeout", "retries", "batch"}
var retryFields = []string{"attempts", "backoff", "max_backoff"}

// retryLayer is what one level (pipeline or block) writes of a retry policy.
type retryLayer struct {
	attempts             *int
	backoff, maxBackoff  *time.Duration
	backoffNode, maxNode *yaml.Node
}

// decodePipeline fills pl from its root node, applying project defaults.
// root is nil for an empty file, which is a valid pipeline with no blocks.
func (d *decoder) decodePipeline(pl *Pipeline, root *yaml.Node, proj *Project) {
	pl.Partitions = PartitionConfig{Interval: "none", Timezone: proj.Timezone, WeekStart: DefaultWeekStart}
	pl.Variables = maps.Clone(proj.Variables)
	if pl.Variables == nil {
		pl.Variables = map[string]string{}
	}
	pl.Concurrency = DefaultConcurrency
	pl.Timeout = proj.Kernel.Timeout
	pl.Retries = RetryPolicy{Backoff: DefaultBackoff, MaxBackoff: DefaultMaxBackoff}
	if root == nil {
		return
	}
	f, ok := d.fields(root, "", "pipeline settings", pipelineFields)
	if !ok {
		return
	}
	if e, ok := f["id"]; ok {
		if s, ok := d.str(e, "id"); ok && s != pl.ID {
			d.addf(e.val, "id", "id %q does not match the file name %s: a pipeline's id is its file name; rename the file or remove id", s, pl.File)
		}
	}
	if e, ok := f["description"]; ok {
		pl.Description, _ = d.str(e, "description")
	}
	if e, ok := f["end_note"]; ok {
		pl.EndNote, _ = d.str(e, "end_note")
	}
	if e, ok := f["partitions"]; ok {
		pl.Partitions = d.decodePartitions(e, "partitions", pl.Partitions, true)
	}
	if e, ok := f["variables"]; ok {
		maps.Copy(pl.Variables, d.strMap(e, "variables"))
	}
	if e, ok := f["concurrency"]; ok {
		if n, ok := d.integer(e, "concurrency"); ok {
			switch {
			case n < 1:
				d.addf(e.val, "concurrency", "concurrency %d runs nothing: want at least 1 partition at once", n)
			case n > MaxConcurrency:
				d.addf(e.val, "concurrency", "concurrency %d is out of range: want between 1 and %d partitions at once", n, MaxConcurrency)
			default:
				pl.Concurrency = n
			}
		}
	}
	var retries retryLayer
	if e, ok := f["retries"]; ok {
		retries = d.decodeRetries(e, "retries")
	}
	pl.Retries = d.resolveRetries("retries", nil, &retries)
	if e, ok := f["timeout"]; ok {
		if v, ok := d.duration(e, "timeout", false); ok {
			pl.Timeout = v
		}
	}
	if e, ok := f["triggers"]; ok {
		d.decodeTriggers(pl, e)
	}
	if e, ok := f["reads"]; ok {
		d.decodeReads(pl, e)
	}
	if e, ok := f["checks"]; ok {
		defer d.decodeChecks(pl, e) // after the blocks, which checks name
	}
	e, ok := f["blocks"]
	if !ok {
		return
	}
	if e.val.Kind != yaml.SequenceNode {
		d.addf(e.val, "blocks", "want a list of blocks (each starting with \"- id: name\"), got %s", describe(e.val))
		return
	}
	seen := map[string]*Block{}
	for i, n := range e.val.Content {
		b := d.decodeBlock(pl, resolve(n), i, &retries)
		if b == nil {
			continue
		}
		if first, dup := seen[b.ID]; dup {
			d.addf(b.fields["id"].val, index("blocks", i)+".id", "duplicate block id %q (first at line %d)", b.ID, first.Line)
			continue
		}
		seen[b.ID] = b
		pl.Blocks = append(pl.Blocks, b)
	}
}

// decodeBlock reads one element of blocks; nil when it has no usable id.
func (d *decoder) decodeBlock(pl *Pipeline, n *yaml.Node, i int, pipelineRetries *retryLayer) *Block {
	path := index("blocks", i)
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" {
		d.addf(n, path, "want a block mapping such as \"- id: %s\", got the string %q", n.Value, n.Value)
		return nil
	}
	f, ok := d.fields(n, path, "a block", blockFields)
	if !ok {
		return nil
	}
	b := &Block{
		index:      i,
		node:       n,
		fields:     f,
		Line:       n.Line,
		Partitions: pl.Partitions,
		Timeout:    pl.Timeout,
		tables:     -1,
	}
	idEntry, ok := f["id"]
	if !ok {
		d.addf(n, path+".id", "missing id: every block needs one, such as \"id: raw_orders\"")
		return nil
	}
	if b.ID, ok = d.str(idEntry, path+".id"); !ok {
		return nil
	}
	if err := ValidateBlockID(b.ID); err != nil {
		d.addf(idEntry.val, path+".id", "%s", err)
	}
	if e, ok := f["note"]; ok {
		b.Note, _ = d.str(e, path+".note")
	}
	if e, ok := f["file"]; ok {
		if s, ok := d.str(e, path+".file"); ok && s == "" {
			d.addf(e.val, path+".file", "empty file: remove it to use blocks/<id>/<id>.go or blocks/<id>.sql")
		} else {
			b.File = s
		}
	}
	if e, ok := f["kind"]; ok {
		if s, ok := d.str(e, path+".kind"); ok {
			if s != KindGo && s != KindSQL {
				d.addf(e.val, path+".kind", "unknown kind %q%s: want go or sql", s, didYouMean(strings.ToLower(s), []string{KindGo, KindSQL}))
			} else {
				b.Kind = s
			}
		}
	}
	if e, ok := f["upstream"]; ok {
		b.Upstream, b.upNodes, _ = d.strList(e, path+".upstream")
	}
	if e, ok := f["dynamic"]; ok {
		b.Dynamic, _ = d.boolean(e, path+".dynamic")
	}
	if e, ok := f["reduce"]; ok {
		b.Reduce, _ = d.boolean(e, path+".reduce")
	}
	if e, ok := f["product"]; ok {
		if s, ok := d.str(e, path+".product"); ok {
			if err := ValidateProductName(s); err != nil {
				d.addf(e.val, path+".product", "%s", err)
			} else {
				b.Product = s
			}
		}
	}
	if e, ok := f["key"]; ok {
		b.Key, _, _ = d.strList(e, path+".key")
	}
	if e, ok := f["partitions"]; ok {
		b.Partitions = d.decodePartitions(e, path+".partitions", pl.Partitions, false)
	}
	if e, ok := f["timeout"]; ok {
		if v, ok := d.duration(e, path+".timeout", false); ok {
			b.Timeout = v
		}
	}
	if e, ok := f["batch"]; ok {
		b.Batch, b.BatchAcross = d.decodeBatch(e, path+".batch")
	}
	var retries retryLayer
	if e, ok := f["retries"]; ok {
		retries = d.decodeRetries(e, path+".retries")
	}
	b.Retries = d.resolveRetries(path+".retries", pipelineRetries, &retries)
	return b
}

func (d *decoder) decodeRetries(e entry, path string) retryLayer {
	var r retryLayer
	f, ok := d.fields(e.val, path, "a retries mapping", retryFields)
	if !ok {
		return r
	}
	if e, ok := f["attempts"]; ok {
		if n, ok := d.integer(e, path+".attempts"); ok {
			if n < 0 {
				d.addf(e.val, path+".attempts", "attempts %d is negative: want the number of retries after a failure, 0 for none", n)
			} else {
				r.attempts = &n
			}
		}
	}
	if e, ok := f["backoff"]; ok {
		if v, ok := d.duration(e, path+".backoff", true); ok {
			r.backoff, r.backoffNode = &v, e.val
		}
	}
	if e, ok := f["max_backoff"]; ok {
		if v, ok := d.duration(e, path+".max_backoff", true); ok {
			r.maxBackoff, r.maxNode = &v, e.val
		}
	}
	return r
}

// resolveRetries applies cur over parent (nil at the pipeline level) and the
// defaults. An unset max_backoff grows to the backoff rather than failing;
// an explicit one shorter than the backoff is reported where it is written.
func (d *decoder) resolveRetries(path string, parent, cur *retryLayer) RetryPolicy {
	var eff retryLayer
	for _, l := range []*retryLayer{parent, cur} {
		if l == nil {
			continue
		}
		if l.attempts != nil {
			eff.attempts = l.attempts
		}
		if l.backoff != nil {
			eff.backoff = l.backoff
		}
		if l.maxBackoff != nil {
			eff.maxBackoff = l.maxBackoff
		}
	}
	r := RetryPolicy{Backoff: DefaultBackoff, MaxBackoff: DefaultMaxBackoff}
	if eff.attempts != nil {
		r.Attempts = *eff.attempts
	}
	if eff.backoff != nil {
		r.Backoff = *eff.backoff
	}
	if eff.maxBackoff == nil {
		r.MaxBackoff = max(r.MaxBackoff, r.Backoff)
		return r
	}
	r.MaxBackoff = *eff.maxBackoff
	if r.MaxBackoff < r.Backoff {
		switch {
		case cur.maxBackoff != nil:
			d.addf(cur.maxNode, path+".max_backoff", "max_backoff %s is shorter than backoff %s", r.MaxBackoff, r.Backoff)
		case cur.backoff != nil:
			d.addf(cur.backoffNode, path+".backoff", "backoff %s is longer than max_backoff %s (from the pipeline's retries)", r.Backoff, r.MaxBackoff)
		}
		r.MaxBackoff = r.Backoff
	}
	return r
}
