package engine

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// Plan is a dry run: each targeted partition's state today and the action
// a backfill would take, with totals. Nothing runs.
type Plan struct {
	Spec BackfillSpec `json:"spec"`
	// Snapshot is the pipeline version the backfill would run: the content
	// hash of the pipeline's files as they are now.
	Snapshot string         `json:"snapshot"`
	From     string         `json:"from"` // pipeline partition keys
	To       string         `json:"to"`
	Total    int            `json:"total"`
	ToRun    int            `json:"to_run"`
	ToSkip   int            `json:"to_skip"`
	ByState  map[string]int `json:"by_state"` // missing, failed, stale, current
	// RollupsByState counts Rollups by their state today (before the
	// partitions the plan runs rewrite them), apart from ByState: Total
	// counts the pipeline's own partitions only.
	RollupsByState map[string]int `json:"rollups_by_state,omitempty"`
	// RollupsTotal and RollupsToRun count every rollup the range touches;
	// Rollups lists those of the page's partitions (all with no limit).
	RollupsTotal int                `json:"rollups_total,omitempty"`
	RollupsToRun int                `json:"rollups_to_run,omitempty"`
	ByProduct    map[string][2]int  `json:"by_product"` // product -> [to run, to skip]
	Products     []string           `json:"products"`
	Partitions   []PlannedPartition `json:"partitions"` // the requested page, oldest first
	Rollups      []PlannedPartition `json:"rollups"`    // coarser partitions (weeks of a daily pipeline) of the page
	// CompileErrors are the problems (file:line:col: message) that make a
	// launch of this plan refused: Go blocks that do not compile.
	CompileErrors []string `json:"compile_errors,omitempty"`
	// KeySets are the versions of the dynamic dimensions' key sets the
	// plan used (also in Spec.KeySets); Dims the cells' dimensions.
	KeySets map[string]int `json:"key_sets,omitempty"`
	Dims    []string       `json:"dims,omitempty"`
}

// PlannedPartition is one partition in a plan.
type PlannedPartition struct {
	Key      string            `json:"key"`
	Interval string            `json:"interval"`
	Start    time.Time         `json:"start"`
	State    string            `json:"state"` // missing, failed, stale, current vN
	Action   string            `json:"action"`
	Reason   string            `json:"reason,omitempty"`
	Products map[string]string `json:"products"` // product -> its state
	// stale is the block whose fingerprint made the partition stale, for
	// Plan to say whether its code or a variable it reads changed.
	stale *staleCode
}

type staleCode struct {
	block   *project.Block
	product string
	vi      versionInfo
}

// Plan computes the dry run of spec; offset and limit page the partitions
// (limit < 0: all).
func (e *Engine) Plan(ctx context.Context, spec BackfillSpec, offset, limit int) (*Plan, error) {
	pl, err := e.Pipeline(spec.Pipeline)
	if err != nil {
		return nil, err
	}
	t, err := e.target(ctx, spec, pl)
	if err != nil {
		return nil, err
	}
	version, err := e.CurrentVersion(pl.ID)
	if err != nil {
		return nil, err
	}
	if plan, ok, err := e.planCounted(ctx, t, version, offset, limit); err != nil || ok {
		return plan, err
	}
	return e.planEach(ctx, t, version, offset, limit)
}

// newPlan is a plan's header: its spec, snapshot, range and products.
func newPlan(e *Engine, t *target, snapshot string, pd *planData) *Plan {
	plan := &Plan{Spec: t.spec, Snapshot: snapshot, From: t.from, To: t.to, Total: t.total, ByState: map[string]int{}, ByProduct: map[string][2]int{},
		KeySets: t.spec.KeySets, Dims: t.pspec.DimNames()}
	if srcs, err := readSources(e.project().Dir, t.pl); err == nil {
		plan.CompileErrors = compileProblems(t.pl, srcs, e.project().Kernel.Allow)
	}
	for _, b := range pd.fine {
		plan.Products = append(plan.Products, ProductName(t.pl, b))
	}
	return plan
}

// planEach is Plan cell by cell: every current version loaded, every cell
// classified (planCounted says when it is not needed).
func (e *Engine) planEach(ctx context.Context, t *target, version string, offset, limit int) (*Plan, error) {
	pd, err := t.loadPlanData(ctx, e, e.project().Dir)
	if err != nil {
		return nil, err
	}
	plan := newPlan(e, t, version, pd)
	it, err := t.pspec.IterBox(t.box)
	if err != nil {
		return nil, err
	}
	rollups := newRollupTracker(t, pd)
	reasons := &staleReasons{e: e, pl: t.pl, pd: pd, memo: map[string]string{}}
	i := 0
	// Counted in arrays, not maps, per cell: a plan may hold millions.
	var byState [4]int
	var byProduct [][2]int = make([][2]int, len(plan.Products))
	for p := range it {
		inPage := i >= offset && (limit < 0 || i < offset+limit)
		pp := pd.classifyWith(t.pl, p, string(t.pspec.Interval), pd.fine, t.spec.Reprocess, inPage)
		byState[stateIndex(pp.State)]++
		run := pp.Action == "run"
		if run {
			plan.ToRun++
		} else {
			plan.ToSkip++
		}
		// classify names every fine block's product in a partition.
		for j := range byProduct {
			if run {
				byProduct[j][0]++
			} else {
				byProduct[j][1]++
			}
		}
		rs := rollups.add(p, run)
		if inPage {
			for _, r := range rs {
				r.inPage = true
			}
			reasons.refine(ctx, &pp)
			plan.Partitions = append(plan.Partitions, pp)
		}
		i++
	}
	for j, n := range byState {
		if n > 0 {
			plan.ByState[stateBuckets[j]] += n
		}
	}
	for j, prod := range plan.Products {
		if c := byProduct[j]; c != [2]int{} {
			plan.ByProduct[prod] = c
		}
	}
	for _, r := range rollups.all() {
		pp := pd.classify(t.pl, r.part, r.interval, r.blocks, t.spec.Reprocess)
		listed := limit < 0 || r.inPage
		if listed {
			reasons.refine(ctx, &pp)
		}
		if plan.RollupsByState == nil {
			plan.RollupsByState = map[string]int{}
		}
		plan.RollupsByState[stateBuckets[stateIndex(pp.State)]]++
		// and so will the rollup: it is not current once they are.
		pp = rewrittenRollup(pp, r.anyRun, t.pspec.Interval)
		plan.RollupsTotal++
		if pp.Action == "run" {
			plan.RollupsToRun++
		}
		for prod := range pp.Products {
			c := plan.ByProduct[prod]
			if pp.Action == "run" {
				c[0]++
			} else {
				c[1]++
			}
			plan.ByProduct[prod] = c
		}
		if listed {
			plan.Rollups = append(plan.Rollups, pp)
		}
	}
	return plan, nil
}

// staleOnceRewritten turns "current vN" into "stale vN".
func staleOnceRewritten(s string) string {
	if v, ok := strings.CutPrefix(s, "current"); ok {
		return "stale" + v
	}
	return s
}

// stateBuckets are the plan's states, in stateIndex's order.
var stateBuckets = [4]string{"missing", "failed", "stale", "current"}

func stateIndex(s string) int {
	switch s {
	case "missing":
		return 0
	case "failed":
		return 1
	case "stale":
		return 2
	}
	return 3 // current vN
}

// planData is what classification needs, loaded once: every current
// version of the pipeline's products with its lineage, each block's code
// hash, and the last finished run of each partition.
type planData struct {
	current  map[string]map[string]versionInfo // product -> partition -> current version
	prod     map[string]map[string]versionInfo // in a backfill into an environment, prod's current (else nil: current)
	hashes   map[string]string                 // block id -> code hash
	lastRun  map[string]State                  // partition key -> last run's final state
	fine     []*project.Block                  // blocks partitioned like the pipeline (with outputs)
	starts   map[string][]partStart            // product -> its current partitions by start, built on demand (startsOf)
	coarse   map[string][]*project.Block       // interval -> blocks
	startsMu sync.Mutex
	// timePos is where a key's time part sits in the pipeline's cells
	// (rollup_unread.go's sameSlice).
	timePos int
	// products remembers ProductName per block (productName).
	products map[*project.Block]string
}

type versionInfo struct {
	version   int
	createdAt time.Time
	runID     string
	codeHash  string
	// credited is the code hash an environment credited to the version: its
	// code changed and reproduced these rows (warehouse/version_credit.go).
	credited string
	upstream map[string]map[string]int
	// inputs are the upstream products in the order the run handed them
	// to the block; nil for a version written before that was recorded.
	inputs []string
	// start and end bound the version's partition: a rollup's range, in
	// which every current upstream partition should be one it read.
	start, end time.Time
}

// loadPlanData reads what classifying pl's partitions needs; dir is the
// project folder pl was loaded from (a snapshot's, for a backfill).
//
// With pinned (a pin owner: a backfill into an environment), the versions
// are those the owner pinned where it pinned any, else the current ones:
// the environment's state, which its backfill plans against.
func (e *Engine) loadPlanData(ctx context.Context, dir string, pl *project.Pipeline, pinned string) (*planData, error) {
	pd := &planData{current: map[string]map[string]versionInfo{}, lastRun: map[string]State{}}
	var err error
	if pd.hashes, err = CodeHashes(dir, pl); err != nil {
		return nil, err
	}
	pd.fine, pd.coarse = splitBlocks(pl)
	pd.timePos = pl.Partitions.TimePos
	var products []any
	for _, b := range pl.Blocks {
		if b.Entry != project.EntryExport {
			products = append(products, ProductName(pl, b))
		}
	}
	if pd.current, err = e.planVersions(ctx, products, pinned); err != nil {
		return nil, err
	}
	if pinned != "" {
		// A run's compare-and-set base stays prod's current version: a
		// promote checks that prod still holds it (BackfillSpec.Into).
		if pd.prod, err = e.planVersions(ctx, products, ""); err != nil {
			return nil, err
		}
	}
	if err := e.loadReadProducts(ctx, pd, pinned); err != nil {
		return nil, err
	}
	runs, err := e.wh.DB().QueryContext(ctx, `SELECT partition_key, arg_max(state, seq) FROM _strata.run_events
		WHERE pipeline = ? AND block_id = '' AND state IN ('succeeded', 'failed', 'cancelled') GROUP BY partition_key`, pl.ID)
	if err != nil {
		return nil, err
	}
	defer runs.Close()
	for runs.Next() {
		var k, s string
		if err := runs.Scan(&k, &s); err != nil {
			return nil, err
		}
		pd.lastRun[k] = State(s)
	}
	return pd, runs.Err()
}

// planVersions reads, per product and partition, the version a plan
// classifies: the current one, or with pinned the one that owner sees.
func (e *Engine) planVersions(ctx context.Context, products []any, pinned string) (map[string]map[string]versionInfo, error) {
	return e.planVersionsOf(ctx, products, pinned, nil)
}

// planVersionsOf is planVersions of the partitions keys only (all when nil).
func (e *Engine) planVersionsOf(ctx context.Context, products []any, pinned string, keys []string) (map[string]map[string]versionInfo, error) {
	only := ""
	if keys != nil {
		only = " AND v.partition IN " + sqlList(keys)
	}
	return e.planVersionsWhere(ctx, products, pinned, only)
}

// planVersionsWhere is planVersions of the versions matching cond too
// (" AND …" over v, its arguments after the products').
func (e *Engine) planVersionsWhere(ctx context.Context, products []any, pinned string, only string, onlyArgs ...any) (map[string]map[string]versionInfo, error) {
	out := map[string]map[string]versionInfo{}
	ph := strings.TrimSuffix(strings.Repeat("?,", len(products)), ",")
	chosen, cargs := warehouse.ChosenVersion(pinned)
	// An environment's plan compares the code it credited to a version its
	// new code reproduced row for row (warehouse/version_credit.go).
	credit, args := warehouse.CreditOf(pinned)
	args = append(append(args, cargs...), products...)
	args = append(args, onlyArgs...)
	// _strata.current is the versions flagged is_current: read them
	// directly rather than join the view back to its own table, which
	// costs a hash join per cell of a 3.65-million-cell plan.
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT v.product, v.partition, v.version, v.created_at, v.run_id, v.code_hash, `+credit+`, CAST(v.upstream AS VARCHAR),
		v.partition_start, v.partition_end, CAST(v.inputs AS VARCHAR)
		FROM _strata.versions v
		WHERE `+chosen+` AND v.product IN (`+ph+`)`+only, args...)
	if err != nil {
		return nil, fmt.Errorf("read current versions: %w", err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var prod, part, up string
		var inputs sql.NullString
		var vi versionInfo
		if err := rows.Scan(&prod, &part, &vi.version, &vi.createdAt, &vi.runID, &vi.codeHash, &vi.credited, &up, &vi.start, &vi.end, &inputs); err != nil {
			return nil, err
		}
		if up != "{}" { // most versions read nothing outside their own cell
			_ = json.Unmarshal([]byte(up), &vi.upstream)
		}
		if inputs.Valid {
			if err := json.Unmarshal([]byte(inputs.String), &vi.inputs); err != nil || vi.inputs == nil {
				vi.inputs = []string{} // recorded, unreadable: compare as "read nothing" rather than not at all
			}
		}
		if out[prod] == nil {
			out[prod] = map[string]versionInfo{}
		}
		out[prod][part] = vi
		n++
	}
	e.loaded("versions", n)
	return out, rows.Err()
}

// codeIs says whether the code hashed h computed the version's rows: the
// code that wrote it, or code its environment credited with the same rows.
func (vi versionInfo) codeIs(h string) bool {
	return vi.codeHash == h || (vi.credited != "" && vi.credited == h)
}

// based is the versions a run's compare-and-set is based on: prod's
// current ones (pd.current is an environment's view in a backfill into one).
func (pd *planData) based() map[string]map[string]versionInfo {
	if pd.prod != nil {
		return pd.prod
	}
	return pd.current
}

// loadReadProducts adds to pd.current the current versions of the products
// outside the pipeline that its versions read (with ctx.Product), so that
// staleUpstream sees them rewritten as it sees the pipeline's own. They
// stay out of pd.starts: a block's range says nothing of what it should
// have read of them.
func (e *Engine) loadReadProducts(ctx context.Context, pd *planData, pinned string) error {
	seen := map[string]bool{}
	var names []any
	for _, parts := range pd.current {
		for _, vi := range parts {
			for prod := range vi.upstream {
				if _, own := pd.current[prod]; !own && !seen[prod] {
					seen[prod] = true
					names = append(names, prod)
				}
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	ph := strings.TrimSuffix(strings.Repeat("?,", len(names)), ",")
	chosen, args := warehouse.ChosenVersion(pinned)
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT v.product, v.partition, v.version, v.run_id
		FROM _strata.versions v WHERE `+chosen+` AND v.product IN (`+ph+`)`, append(args, names...)...)
	if err != nil {
		return fmt.Errorf("read current versions of read products: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var prod, part string
		var vi versionInfo
		if err := rows.Scan(&prod, &part, &vi.version, &vi.runID); err != nil {
			return err
		}
		if pd.current[prod] == nil {
			pd.current[prod] = map[string]versionInfo{}
		}
		pd.current[prod][part] = vi
	}
	return rows.Err()
}

// splitBlocks separates the blocks with outputs partitioned like the
// pipeline from the coarser ones, by interval, each upstream first
// (classify carries a change down the DAG in that order).
func splitBlocks(pl *project.Pipeline) (fine []*project.Block, coarse map[string][]*project.Block) {
	coarse = map[string][]*project.Block{}
	for _, b := range pl.Order() {
		switch {
		case b.Entry == project.EntryExport:
		case b.Partitions.Interval == pl.Partitions.Interval:
			fine = append(fine, b)
		default:
			coarse[b.Partitions.Interval] = append(coarse[b.Partitions.Interval], b)
		}
	}
	return fine, coarse
}

// classify decides one partition's state and action for a set of blocks.
func (pd *planData) classify(pl *project.Pipeline, p partitions.Partition, interval string, blocks []*project.Block, policy string) PlannedPartition {
	return pd.classifyWith(pl, p, interval, blocks, policy, true)
}

// classifyWith is classify; without detail it leaves Products out (a
// plan's cells outside its page, counted only).
func (pd *planData) classifyWith(pl *project.Pipeline, p partitions.Partition, interval string, blocks []*project.Block, policy string, detail bool) PlannedPartition {
	pp := PlannedPartition{Key: p.Key, Interval: interval, Start: p.Start}
	products := productStates{detail: detail}
	if detail {
		pp.Products = make(map[string]string, len(blocks))
		products.m = pp.Products
	}
	missing, stale, maxV := false, "", 0
	// changes holds the blocks of this partition whose output a run will
	// change (missing or stale): a block that reads one is stale too,
	// though its own version still matches what it read. Shown "current",
	// it read as if the run would leave it alone (issue 10).
	var changesBuf [8]string
	changes := blockSet(changesBuf[:0])
	for _, b := range blocks {
		prod := pd.productName(pl, b)
		vi, ok := pd.current[prod][p.Key]
		up := changedUpstream(b, changes)
		switch {
		case !ok:
			missing = true
			changes = changes.add(b.ID)
			products.set(prod, "missing", 0)
		case up != "":
			changes = changes.add(b.ID)
			products.set(prod, "stale", vi.version)
			if stale == "" {
				stale = "its upstream " + up + " changes"
			}
		case !vi.codeIs(pd.hashes[b.ID]):
			changes = changes.add(b.ID)
			products.set(prod, "stale", vi.version)
			if stale == "" {
				stale = "the code of " + b.ID + " changed"
				pp.stale = &staleCode{b, prod, vi}
			}
		default:
			why := rewired(pl, b, vi)
			if why == "" {
				why = pd.staleUpstream(vi)
			}
			if why != "" {
				changes = changes.add(b.ID)
				products.set(prod, "stale", vi.version)
				if stale == "" {
					stale = why
				}
			} else {
				products.set(prod, "current", vi.version)
			}
		}
		if vi.version > maxV {
			maxV = vi.version
		}
	}
	failed := pd.lastRun[p.Key] == StateFailed || pd.lastRun[p.Key] == StateCancelled
	switch {
	case failed:
		pp.State = "failed"
	case missing:
		pp.State = "missing"
	case stale != "":
		pp.State, pp.Reason = "stale", stale
	case detail:
		pp.State = versionState("current", maxV)
	default:
		pp.State = "current" // counted only: its version is not shown
	}
	run := false
	switch policy {
	case ReprocessAll:
		run = true
	case ReprocessStale:
		run = missing || pp.State == "failed" || pp.State == "stale"
	case ReprocessFailed:
		run = missing || pp.State == "failed"
	default:
		run = missing // a failed partition without data is missing too
	}
	pp.Action = "skip"
	if run {
		pp.Action = "run"
	}
	return pp
}

// versionState spells "current v3" and "stale v3", from a table for the
// versions most cells have: a plan of millions of cells spells one per
// product per cell.
func versionState(state string, v int) string {
	if v >= 0 && v < len(currentStates) {
		if state == "current" {
			return currentStates[v]
		}
		return staleStates[v]
	}
	return state + " v" + strconv.Itoa(v)
}

var currentStates, staleStates = func() (c, s [16]string) {
	for i := range c {
		c[i], s[i] = "current v"+strconv.Itoa(i), "stale v"+strconv.Itoa(i)
	}
	return
}()

// productName is ProductName, remembered per block.
func (pd *planData) productName(pl *project.Pipeline, b *project.Block) string {
	if n, ok := pd.products[b]; ok {
		return n
	}
	n := ProductName(pl, b)
	if pd.products == nil {
		pd.products = map[*project.Block]string{}
	}
	pd.products[b] = n
	return n
}

// changedUpstream names the first of b's upstream blocks in changes.
func changedUpstream(b *project.Block, changes blockSet) string {
	for _, id := range b.Upstream {
		if slices.Contains(changes, id) {
			return id
		}
	}
	return ""
}

// blockSet is a partition's changed blocks: a handful, on the stack.
type blockSet []string

func (s blockSet) add(id string) blockSet {
	if slices.Contains(s, id) {
		return s
	}
	return append(s, id)
}

// productStates writes a partition's product states when they are shown.
type productStates struct {
	detail bool
	m      map[string]string
}

func (p productStates) set(prod, state string, v int) {
	if !p.detail {
		return
	}
	if state == "missing" {
		p.m[prod] = state
		return
	}
	p.m[prod] = versionState(state, v)
}

// rewired says why a version read other upstream products than block b
// reads now (the pipeline file rewired it), or the same ones in another
// order; "" when they are the same or the version recorded none. The code
// fingerprint leaves the wiring out.
//
// The order counts for every block, SQL too: a Go block receives its
// upstreams as parameters in the pipeline's order, and a SQL block, which
// names them, only costs a run it did not need, where a Transform judged
// current after its parameters swapped would be computed from the other
// tables. A version written before the order was recorded (inputs nil) is
// compared by the products it read.
func rewired(pl *project.Pipeline, b *project.Block, vi versionInfo) string {
	if vi.upstream == nil {
		return "" // written before lineage was recorded: nothing to compare
	}
	now := inputProducts(pl, b)
	if vi.inputs != nil && !slices.Equal(vi.inputs, now) && slices.Equal(slices.Sorted(slices.Values(vi.inputs)), slices.Sorted(slices.Values(now))) {
		return fmt.Sprintf("the order of its upstreams changed: it reads %s now, this version read %s", strings.Join(now, ", "), strings.Join(vi.inputs, ", "))
	}
	// upstream holds what ctx.Product read too; inputs, where recorded,
	// says which of it were the block's upstreams.
	read := slices.Sorted(maps.Keys(vi.upstream))
	if vi.inputs != nil {
		read = slices.Sorted(slices.Values(vi.inputs))
	}
	sorted := slices.Sorted(slices.Values(now))
	if slices.Equal(read, slices.Compact(sorted)) {
		return ""
	}
	list := func(s []string) string {
		if len(s) == 0 {
			return "none"
		}
		return strings.Join(s, ", ")
	}
	return fmt.Sprintf("its upstreams changed: it reads %s now, this version read %s", list(now), list(read))
}

// staleUpstream says why a version no longer matches the data it read.
func (pd *planData) staleUpstream(vi versionInfo) string {
	for prod, parts := range vi.upstream {
		for part, v := range parts {
			cur, ok := pd.current[prod][part]
			switch {
			case !ok:
				continue // the upstream is gone or outside this pipeline: nothing to compare
			case v == 0 && cur.runID != vi.runID:
				return fmt.Sprintf("upstream %s %s was rewritten", prod, part)
			case v != 0 && cur.version != v:
				return fmt.Sprintf("upstream %s %s is now v%d (read v%d)", prod, part, cur.version, v)
			}
		}
	}
	return pd.unreadUpstream(vi)
}

// rollupTracker follows the coarse partitions (weeks of a daily pipeline)
// that a range touches: how many of their fine partitions are still to
// come, and whether any of them runs.
type rollupTracker struct {
	t     *target
	pd    *planData
	order []*rollup
	byKey map[string]*rollup
	// specs are the coarse intervals' partition math, computed once, and
	// intervals their names in order.
	specs     map[string]partitions.Spec
	intervals []string
	// first and last bound the backfill's time range.
	first, last partitions.Partition
}

type rollup struct {
	interval  string
	part      partitions.Partition
	blocks    []*project.Block
	remaining int
	anyRun    bool
	anyFailed bool
	// planRead: a pass has read its plan (visitPages; its own goroutine only).
	planRead bool
	inPage   bool // one of its partitions is on the plan's page (planEach)
}

func newRollupTracker(t *target, pd *planData) *rollupTracker {
	rt := &rollupTracker{t: t, pd: pd, byKey: map[string]*rollup{}, specs: map[string]partitions.Spec{}, intervals: sortedKeys(pd.coarse)}
	for interval, blocks := range pd.coarse {
		if cs, err := t.specOf(blocks[0].Partitions); err == nil {
			rt.specs[interval] = cs
		}
	}
	if t.pspec.Interval != partitions.None {
		rt.first, _ = t.pspec.TimeOnly().Parse(t.from)
		rt.last, _ = t.pspec.TimeOnly().Parse(t.to)
	}
	return rt
}

// add records fine partition p; it returns the rollups p belongs to.
func (rt *rollupTracker) add(p partitions.Partition, runs bool) []*rollup {
	var out []*rollup
	for _, interval := range rt.intervals {
		blocks := rt.pd.coarse[interval]
		cs, ok := rt.specs[interval]
		if !ok {
			continue
		}
		for _, cp := range rt.t.pspec.Containing(p, cs) {
			k := interval + "/" + cp.Key
			r := rt.byKey[k]
			if r == nil {
				r = &rollup{interval: interval, part: cp, blocks: blocks, remaining: rt.finesInRange(cp, cs)}
				rt.byKey[k] = r
				rt.order = append(rt.order, r)
			}
			r.anyRun = r.anyRun || runs
			out = append(out, r)
		}
	}
	return out
}

// finesInRange counts the fine partitions of coarse partition cp inside the backfill's range.
func (rt *rollupTracker) finesInRange(cp partitions.Partition, cs partitions.Spec) int {
	n := 0
	for _, f := range cs.Covering(cp, rt.t.pspec) {
		if !f.Start.Before(rt.first.Start) && !f.Start.After(rt.last.Start) {
			n++
		}
	}
	return n
}

func (rt *rollupTracker) all() []*rollup {
	sort.SliceStable(rt.order, func(i, j int) bool { return rt.order[i].part.Start.Before(rt.order[j].part.Start) })
	return rt.order
}
