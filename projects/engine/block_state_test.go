package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/projects/warehouse"
)

// An incremental source: orders reads the rows of a CSV file after the
// cursor last_id and moves the cursor to the last id it read. When the
// file fail_once names does not exist yet, it creates it, sets the cursor
// to 999 and fails: the retry must start from the committed cursor.
const incPipeline = `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
variables: {source: "%s", fail_once: "%s"}
retries: {attempts: 1, backoff: 1ms}
blocks:
  - id: orders
`

const ordersBlock = `package orders

import (
	"errors"
	"os"
	"strconv"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	st := ctx.State()
	last, _ := strconv.ParseInt(st.Get("last_id"), 10, 64)
	ctx.Log.Info("cursor", "last_id", last)
	data, err := os.ReadFile(ctx.Var("source", ""))
	if err != nil {
		return nil, err
	}
	t := sdk.NewTable(sdk.Int64("id"), sdk.String("item"))
	max := last
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(line, ",")
		id, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return nil, err
		}
		if id > last {
			t.Append(id, f[1])
			if id > max {
				max = id
			}
		}
	}
	st.Set("last_id", strconv.FormatInt(max, 10))
	if marker := ctx.Var("fail_once", ""); marker != "" {
		if _, err := os.Stat(marker); err != nil {
			st.Set("last_id", "999")
			if err := os.WriteFile(marker, nil, 0o644); err != nil {
				return nil, err
			}
			return nil, errors.New("failed after setting the cursor")
		}
	}
	return t, nil
}
`

type incEnv struct {
	*env
	source string
}

func newIncEnv(t *testing.T, compiled bool, failOnce string) *incEnv {
	t.Helper()
	src := filepath.Join(t.TempDir(), "orders.csv")
	files := map[string]string{
		"pipelines/inc.yaml":      sprintf(incPipeline, src, failOnce),
		"blocks/orders/orders.go": ordersBlock,
	}
	var e *env
	if compiled {
		e = newCompiledEnv(t, false, files)
	} else {
		e = newEnv(t, false, files)
	}
	return &incEnv{env: e, source: src}
}

// add appends rows "id,item" to the source file.
func (e *incEnv) add(lines ...string) {
	e.t.Helper()
	f, err := os.OpenFile(e.source, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		e.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(strings.Join(lines, "\n") + "\n"); err != nil {
		e.t.Fatal(err)
	}
}

// ids returns the ids of the current version of a partition of orders.
func (e *incEnv) ids(key string) []int64 {
	e.t.Helper()
	tb, err := e.wh.Read(context.Background(), "inc__orders", warehouse.Selection{Partitions: []string{key}}, -1)
	if err != nil {
		e.t.Fatal(err)
	}
	return tb.Column("id").Int64s()
}

func (e *incEnv) cursor() string {
	e.t.Helper()
	st, err := e.wh.State(context.Background(), "inc__orders")
	if err != nil {
		e.t.Fatal(err)
	}
	return st["last_id"]
}

func TestBlockStateCursor(t *testing.T) {
	for _, compiled := range []bool{false, true} {
		name := "interp"
		if compiled {
			name = "compiled"
		}
		t.Run(name, func(t *testing.T) {
			e := newIncEnv(t, compiled, "")
			e.add("1,a", "2,b", "3,c")
			want := EngineInterp
			if compiled {
				needToolchain(t)
				want = EngineCompiled
			}
			res := e.run("inc", "2024-01-01")
			e.mustSucceed(res)
			if res.Engine != want {
				t.Fatalf("engine %q, want %q", res.Engine, want)
			}
			if got := e.ids("2024-01-01"); !equalInts(got, 1, 2, 3) || e.cursor() != "3" {
				t.Fatalf("first run: ids %v cursor %q, want [1 2 3] and 3", got, e.cursor())
			}
			e.add("4,d", "5,e")
			// Another partition: the cursor is the block's, across partitions.
			e.mustSucceed(e.run("inc", "2024-01-02"))
			if got := e.ids("2024-01-02"); !equalInts(got, 4, 5) || e.cursor() != "5" {
				t.Fatalf("second run: ids %v cursor %q, want [4 5] and 5", got, e.cursor())
			}
			// Nothing new: an empty version, the cursor carried forward.
			e.mustSucceed(e.run("inc", "2024-01-03"))
			if got := e.ids("2024-01-03"); len(got) != 0 || e.cursor() != "5" {
				t.Fatalf("third run: ids %v cursor %q, want [] and 5", got, e.cursor())
			}
		})
	}
}

// A failed attempt's Set is never committed: its retry starts from the
// cursor of the last publish.
func TestBlockStateFailedAttemptNotCommitted(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "failed-once")
	e := newIncEnv(t, false, marker)
	// The first run fails once (marker missing) and succeeds on its retry.
	e.add("1,a", "2,b")
	res := e.run("inc", "2024-01-01")
	e.mustSucceed(res)
	if res.Blocks[0].Attempts != 2 {
		t.Fatalf("attempts = %d, want 2 (one failure, one retry)", res.Blocks[0].Attempts)
	}
	if got := e.ids("2024-01-01"); !equalInts(got, 1, 2) || e.cursor() != "2" {
		t.Fatalf("ids %v cursor %q, want [1 2] and 2 (not the failed attempt's 999)", got, e.cursor())
	}
	// A run that fails for good publishes nothing and keeps the cursor.
	if err := os.Remove(marker); err != nil {
		t.Fatal(err)
	}
	e.add("3,c")
	e.writePipelineRetries(0)
	res = e.run("inc", "2024-01-02")
	if res.State != StateFailed {
		t.Fatalf("run = %s, want failed", res.State)
	}
	if e.cursor() != "2" {
		t.Fatalf("cursor after a failed run = %q, want 2", e.cursor())
	}
	e.mustSucceed(e.run("inc", "2024-01-02"))
	if got := e.ids("2024-01-02"); !equalInts(got, 3) || e.cursor() != "3" {
		t.Fatalf("after the failed run: ids %v cursor %q, want [3] and 3", got, e.cursor())
	}
}

func (e *incEnv) writePipelineRetries(n int) {
	e.t.Helper()
	p := filepath.Join(e.dir, "pipelines", "inc.yaml")
	b, err := os.ReadFile(p)
	if err != nil {
		e.t.Fatal(err)
	}
	s := strings.Replace(string(b), "retries: {attempts: 1, backoff: 1ms}", sprintf("retries: {attempts: %d}", n), 1)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		e.t.Fatal(err)
	}
	e.reload()
}

// A rollback rewinds the cursor with the data: the next run reads again
// what the rolled-back version had read.
func TestBlockStateRollbackRewinds(t *testing.T) {
	e := newIncEnv(t, false, "")
	e.add("1,a", "2,b")
	e.mustSucceed(e.run("inc", "2024-01-01"))
	e.add("3,c", "4,d")
	e.mustSucceed(e.run("inc", "2024-01-01")) // version 2: ids 3, 4
	if e.cursor() != "4" {
		t.Fatalf("cursor = %q, want 4", e.cursor())
	}
	if err := e.eng.RollbackProduct(context.Background(), "inc__orders", "2024-01-01", 1); err != nil {
		t.Fatal(err)
	}
	if got := e.ids("2024-01-01"); !equalInts(got, 1, 2) || e.cursor() != "2" {
		t.Fatalf("after rollback: ids %v cursor %q, want [1 2] and 2", got, e.cursor())
	}
	e.mustSucceed(e.run("inc", "2024-01-02"))
	if got := e.ids("2024-01-02"); !equalInts(got, 3, 4) || e.cursor() != "4" {
		t.Fatalf("after rollback and a run: ids %v cursor %q, want [3 4] and 4", got, e.cursor())
	}
}

func equalInts(got []int64, want ...int64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

// A block run once per item of a dynamic parent cannot set state: its
// children would race for one cursor. Refused, not dropped.
func TestBlockStateRefusedInDynamicChildren(t *testing.T) {
	files := fanFiles(2, "")
	files["blocks/work/work.go"] = strings.Replace(workBlock, `	t := sdk.NewTable(sdk.String("key"), sdk.Int64("double"))`,
		`	ctx.State().Set("seen", ctx.Item.Key)
	t := sdk.NewTable(sdk.String("key"), sdk.Int64("double"))`, 1)
	e := newEnv(t, false, files)
	res := e.run("fan", "2024-01-01")
	refused := 0
	for _, o := range res.Blocks {
		if o.Block == "work" && o.Child != "" && strings.Contains(o.Error, "cannot set state") {
			refused++
		}
	}
	if res.State != StateFailed || refused != 2 {
		t.Fatalf("run %s: %s; want both children refused: %+v", res.State, res.Error, res.Blocks)
	}
}

// A notebook cell runs from the cursor a run would start from.
func TestBlockStateInteractive(t *testing.T) {
	e := newIncEnv(t, false, "")
	e.add("1,a", "2,b")
	e.mustSucceed(e.run("inc", "2024-01-01"))
	in, err := e.eng.PrepareInteractiveItem(context.Background(), "inc", "orders", "2024-01-02", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	req, err := in.ExecRequest(ordersBlock)
	if err != nil || req.State["last_id"] != "2" {
		t.Fatalf("cell request state %v %v, want last_id=2", req.State, err)
	}
}

// In an environment the cursor is the environment's: a run into dev
// starts from the state of the latest version dev reads (prod's until dev
// has its own), an editor cell in dev starts from dev's, and prod's stays
// where prod left it.
func TestBlockStateInEnvironment(t *testing.T) {
	e := newIncEnv(t, false, "")
	ctx := context.Background()
	const owner = "env:dev"
	inEnv := RunOptions{Stage: true, Pin: owner, PreferPinned: owner}
	e.add("1,a", "2,b")
	e.mustSucceed(e.run("inc", "2024-01-01"))
	e.add("3,c", "4,d")
	res, err := e.eng.Run(ctx, "inc", "2024-01-02", inEnv)
	if err != nil {
		t.Fatal(err)
	}
	e.mustSucceed(res)
	cellState := func(pinned string) string {
		t.Helper()
		in, err := e.eng.PrepareInteractiveIn(ctx, pinned, "inc", "orders", "2024-01-03", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		req, err := in.ExecRequest(ordersBlock)
		if err != nil {
			t.Fatal(err)
		}
		return req.State["last_id"]
	}
	if got := cellState(owner); got != "4" {
		t.Fatalf("an editor cell in dev starts from last_id=%s, want dev's 4", got)
	}
	if got := cellState(""); got != "2" {
		t.Fatalf("an editor cell in prod starts from last_id=%s, want prod's 2", got)
	}
	e.add("5,e")
	if res, err = e.eng.Run(ctx, "inc", "2024-01-03", inEnv); err != nil {
		t.Fatal(err)
	}
	e.mustSucceed(res)
	tb, err := e.wh.Read(ctx, "inc__orders", warehouse.Selection{Partitions: []string{"2024-01-03"}, PreferPinned: owner}, -1)
	if err != nil {
		t.Fatal(err)
	}
	if got := tb.Column("id").Int64s(); len(got) != 1 || got[0] != 5 {
		t.Fatalf("dev's second run read ids %v, want [5] (after dev's cursor 4)", got)
	}
	if got := e.cursor(); got != "2" {
		t.Fatalf("prod's cursor is %s after runs into dev, want 2", got)
	}
}
