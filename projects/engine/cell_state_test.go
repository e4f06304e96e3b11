package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
)

func storedOf(t *testing.T, e *env, pipeline, key string) map[string]StoredState {
	t.Helper()
	sts, err := e.eng.StoredStates(context.Background(), pipeline, key)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]StoredState{}
	for _, s := range sts {
		out[s.Block] = s
	}
	return out
}

// Each block's stored output for a partition says current or stale and
// why: a variable it reads changed (named, with both values), its code
// changed, or an upstream is stale; a block that reads no variable stays
// current after a variable change, as in the backfill plan.
func TestStoredStatesSayWhy(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	const key = "2024-01-03"
	if got := storedOf(t, e, "p", key)["src"]; got.State != "missing" {
		t.Fatalf("before any run: %+v", got)
	}
	e.mustSucceed(e.run("p", key))
	st := storedOf(t, e, "p", key)
	if st["src"].State != "current" || st["agg"].State != "current" || st["weekly"].Partition != "2024-W01" {
		t.Fatalf("after a run: %+v", st)
	}

	writeFiles(t, e.dir, map[string]string{"pipelines/p.yaml": sprintf(dailyPipeline, "2030-01-01")})
	e.reload()
	st = storedOf(t, e, "p", key)
	if s := st["src"]; s.State != "stale" || s.Cause != CauseVariable || !strings.Contains(s.Reason, `fail_on "" → "2030-01-01"`) {
		t.Fatalf("src after a variable change: %+v", s)
	}
	if s := st["agg"]; s.State != "stale" || s.Cause != CauseUpstreamStale || !strings.Contains(s.Reason, "upstream src is stale") {
		t.Fatalf("agg (reads no variable) after the change: %+v", s)
	}

	// Back to the old value, then a code change of agg.
	writeFiles(t, e.dir, map[string]string{"pipelines/p.yaml": sprintf(dailyPipeline, ""), "blocks/agg.sql": aggBlock + " -- comment only\n"})
	e.reload()
	if s := storedOf(t, e, "p", key)["agg"]; s.State != "current" {
		t.Fatalf("a comment is not a code change: %+v", s)
	}
	writeFiles(t, e.dir, map[string]string{"blocks/agg.sql": strings.Replace(aggBlock, "sum(x)", "max(x)", 1)})
	e.reload()
	st = storedOf(t, e, "p", key)
	if s := st["agg"]; s.State != "stale" || s.Cause != CauseCode || s.Reason != "the code of agg changed" {
		t.Fatalf("agg after a code change: %+v", s)
	}
	if s := st["src"]; s.State != "current" {
		t.Fatalf("src is untouched: %+v", s)
	}

}

// A block under a dynamic parent lists the parent's items, and an editor
// run can take any of them as its item.
func TestDynamicItemsAndChosenItem(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, fanFiles(4, ""))
	const key = "2024-01-02"
	e.mustSucceed(e.run("fan", key))
	ctx := context.Background()
	items, err := e.eng.DynamicItems(ctx, "fan", "work", key, nil)
	if err != nil || items == nil || items.Parent != "items" || strings.Join(items.Keys, ",") != "k0,k1,k2,k3" || items.Total != 4 {
		t.Fatalf("items: %+v %v", items, err)
	}
	if none, err := e.eng.DynamicItems(ctx, "fan", "items", key, nil); none != nil || err != nil {
		t.Fatalf("a block without a dynamic parent has no items: %+v %v", none, err)
	}
	in, err := e.eng.PrepareInteractiveItem(ctx, "fan", "work", key, "k2", nil)
	if err != nil || in.Item.Key != "k2" || in.Inputs[0].Column("v").Int64s()[0] != 2 {
		t.Fatalf("work as k2: %+v %v", in, err)
	}
	if _, err := e.eng.PrepareInteractiveItem(ctx, "fan", "work", key, "k9", nil); err == nil || !strings.Contains(err.Error(), `no item "k9" among its 4 rows`) {
		t.Fatalf("an unknown item: %v", err)
	}
}

// A SQL block's completions: its upstreams by id with the columns of their
// published data, or of a session's draft; nothing published, no columns.
func TestSQLTables(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	ctx := context.Background()
	got, err := e.eng.SQLTables(ctx, "p", "agg", nil)
	if err != nil || len(got) != 1 || got[0].Name != "src" || len(got[0].Columns) != 0 || got[0].Published {
		t.Fatalf("before a run: %+v %v", got, err)
	}
	e.mustSucceed(e.run("p", "2024-01-03"))
	got, err = e.eng.SQLTables(ctx, "p", "agg", nil)
	if err != nil {
		t.Fatal(err)
	}
	if cols := got[0].Columns; !got[0].Published || len(cols) != 2 || cols[0].Name != "day" || cols[1].Name != "x" || cols[1].Type != "int64" {
		t.Fatalf("after a run: %+v", got)
	}
	draft := func(b string) ([]sdk.Field, bool) { return []sdk.Field{sdk.String("only")}, b == "src" }
	if got, err = e.eng.SQLTables(ctx, "p", "agg", draft); err != nil || !got[0].Draft || len(got[0].Columns) != 1 || got[0].Columns[0].Name != "only" {
		t.Fatalf("with a draft: %+v %v", got, err)
	}
	if _, err := e.eng.SQLTables(ctx, "p", "src", nil); err == nil {
		t.Fatal("a Go block has no SQL tables")
	}
}
