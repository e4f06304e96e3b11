package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/strataproc"
)

// cellsOrdersNewKey is day × region × customer from three days ago, with a
// trigger that runs the cells of each customer added to dim_customers.
const cellsOrdersNewKey = `partitions:
  interval: day
  timezone: UTC
  start: "%s"
  dimensions:
    - name: region
      values: [us, eu]
    - name: customer
      from: {product: dim_customers, column: id}
retries: {attempts: 0}
blocks:
  - id: load
triggers:
  - id: new-customers
    when: {product: dim_customers, changes: new-key}
`

// cellsCustomersFileGo lists the customer ids written in a file, so the
// test can add one without editing the pipeline (no reload to wait for).
func cellsCustomersFileGo(file string) string {
	return fmt.Sprintf(`package list

import (
	"os"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	raw, err := os.ReadFile(%q)
	if err != nil {
		return nil, err
	}
	t := sdk.NewTable(sdk.String("id"))
	for _, id := range strings.Split(strings.TrimSpace(string(raw)), ",") {
		t.Append(id)
	}
	return t, nil
}
`, file)
}

// TestNewKeyTriggerThroughBinary: a new customer in dim_customers runs
// exactly its cells (every day since the start × every region), through
// `strata start`; one added by the CLI while the server is down (killed)
// runs at the next start, once, and nothing else runs again.
func TestNewKeyTriggerThroughBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	start := time.Now().UTC().AddDate(0, 0, -3).Format("2006-01-02")
	days := []string{start, time.Now().UTC().AddDate(0, 0, -2).Format("2006-01-02"), time.Now().UTC().AddDate(0, 0, -1).Format("2006-01-02")}
	write := func(p, c string) {
		t.Helper()
		writeProject(t, dir, map[string]string{p: c})
	}
	runWant(t, bin, 0, "init", dir)
	ids := filepath.Join(t.TempDir(), "ids")
	write("pipelines/customers.yaml", "blocks:\n  - id: list\n    product: dim_customers\n")
	write("blocks/list/list.go", cellsCustomersFileGo(ids))
	setIDs := func(v string) {
		t.Helper()
		if err := os.WriteFile(ids, []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	setIDs("c1,c2")
	write("pipelines/orders.yaml", fmt.Sprintf(cellsOrdersNewKey, start))
	write("blocks/load/load.go", cellsOrdersGo)
	t.Setenv("STRATA_TRIGGER_CLOCK_SPEED", "30")
	const token = "0123456789abcdef-test"
	srv := strataproc.Start(t, bin, dir, token)

	cellsOf := func(customers ...string) []string {
		var out []string
		for _, d := range days {
			for _, r := range []string{"us", "eu"} {
				for _, c := range customers {
					out = append(out, d+"|"+r+"|"+c)
				}
			}
		}
		sort.Strings(out)
		return out
	}
	wantRuns := func(what string, want []string) {
		t.Helper()
		wantTriggered(t, srv, "orders", "new-customers", what, want)
	}
	runCustomers := func() {
		t.Helper()
		var res struct {
			State string `json:"state"`
		}
		srv.Call(t, http.MethodPost, "/pipelines/customers/runs?wait=true", `{}`, &res)
		if res.State != "succeeded" {
			t.Fatalf("customers run: %+v\n%s", res, srv.Stderr)
		}
	}

	// The first key set: every key is new.
	runCustomers()
	wantRuns("key set v1 (c1, c2)", cellsOf("c1", "c2"))

	// A new customer: its six cells alone.
	setIDs("c1,c2,c3")
	runCustomers()
	wantRuns("key set v2 adds c3", cellsOf("c1", "c2", "c3"))

	// Killed; a customer added by the CLI meanwhile runs at the next start.
	srv.Kill()
	setIDs("c1,c2,c3,c4")
	runWant(t, bin, 0, "run", dir, "customers")
	srv = strataproc.Start(t, bin, dir, token)
	wantRuns("key set v3 adds c4 after the restart", cellsOf("c1", "c2", "c3", "c4"))
	srv.Stop(t)

	versions := versionCounts(t, dir, "orders__load")
	if len(versions) != 24 {
		t.Fatalf("%d cells have versions, want 24: %v", len(versions), versions)
	}
	for k, n := range versions {
		if n != 1 {
			t.Errorf("cell %s has %d versions, want 1", k, n)
		}
	}
}

// wantTriggered waits until the trigger's succeeded runs of pipeline
// cover as many cells as want, then checks they are exactly want, each
// run once.
func wantTriggered(t *testing.T, srv *strataproc.Server, pipeline, trigger, what string, want []string) {
	t.Helper()
	type run struct {
		Partition string `json:"partition"`
		State     string `json:"state"`
	}
	triggered := func() map[string]int {
		var out struct{ Runs []run }
		srv.Call(t, http.MethodGet, "/runs?pipeline="+pipeline+"&origin=trigger:"+trigger+"&limit=1000", "", &out)
		got := map[string]int{}
		for _, r := range out.Runs {
			if r.State == "succeeded" {
				got[r.Partition]++
			}
		}
		return got
	}
	var got map[string]int
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		got = triggered()
		if len(got) >= len(want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d cells run by the trigger within 90s, want %d: %v\n%s", what, len(got), len(want), got, srv.Stderr)
		}
	}
	var keys []string
	for k, n := range got {
		keys = append(keys, k)
		if n != 1 {
			t.Errorf("%s: cell %s ran %d times, want once", what, k, n)
		}
	}
	sort.Strings(keys)
	if strings.Join(keys, " ") != strings.Join(want, " ") {
		t.Fatalf("%s: the trigger ran\n%v\nwant\n%v", what, keys, want)
	}
}

// TestNewKeyTriggerNoTimeThroughBinary: on a pipeline partitioned by
// region × customer with no time dimension, a new customer runs exactly
// its cells (one per region), through `strata start`.
func TestNewKeyTriggerNoTimeThroughBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	write := func(p, c string) {
		t.Helper()
		writeProject(t, dir, map[string]string{p: c})
	}
	runWant(t, bin, 0, "init", dir)
	ids := filepath.Join(t.TempDir(), "ids")
	write("pipelines/customers.yaml", "blocks:\n  - id: list\n    product: dim_customers\n")
	write("blocks/list/list.go", cellsCustomersFileGo(ids))
	setIDs := func(v string) {
		t.Helper()
		if err := os.WriteFile(ids, []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	setIDs("c1,c2")
	write("pipelines/accounts.yaml", `partitions:
  dimensions:
    - name: region
      values: [us, eu]
    - name: customer
      from: {product: dim_customers, column: id}
retries: {attempts: 0}
blocks:
  - id: load
triggers:
  - id: new-customers
    when: {product: dim_customers, changes: new-key}
`)
	write("blocks/load/load.go", cellsOrdersGo)
	t.Setenv("STRATA_TRIGGER_CLOCK_SPEED", "30")
	const token = "0123456789abcdef-test"
	srv := strataproc.Start(t, bin, dir, token)
	runCustomers := func() {
		t.Helper()
		var res struct {
			State string `json:"state"`
		}
		srv.Call(t, http.MethodPost, "/pipelines/customers/runs?wait=true", `{}`, &res)
		if res.State != "succeeded" {
			t.Fatalf("customers run: %+v\n%s", res, srv.Stderr)
		}
	}
	runCustomers()
	wantTriggered(t, srv, "accounts", "new-customers", "key set v1 (c1, c2)", []string{"eu|c1", "eu|c2", "us|c1", "us|c2"})
	setIDs("c1,c2,c3")
	runCustomers()
	wantTriggered(t, srv, "accounts", "new-customers", "key set v2 adds c3", []string{"eu|c1", "eu|c2", "eu|c3", "us|c1", "us|c2", "us|c3"})
	// The firing says what it ran, with no empty time window.
	var st struct {
		History []struct {
			Action string `json:"action"`
			Detail string `json:"detail"`
		} `json:"history"`
	}
	srv.Call(t, http.MethodGet, "/pipelines/accounts/triggers/new-customers?history=10", "", &st)
	var launched []string
	for _, f := range st.History {
		if f.Action == "launched" {
			launched = append(launched, f.Detail)
		}
	}
	if len(launched) != 2 || !strings.Contains(launched[0]+launched[1], "c3; every cell of the new keys (no time dimension)") || strings.Contains(strings.Join(launched, " "), "time ..") {
		t.Errorf("launched firings %q: want two, the one of c3 saying it runs every cell of the new keys", launched)
	}
	srv.Stop(t)

	versions := versionCounts(t, dir, "accounts__load")
	if len(versions) != 6 {
		t.Fatalf("%d cells have versions, want 6: %v", len(versions), versions)
	}
	for k, n := range versions {
		if n != 1 {
			t.Errorf("cell %s has %d versions, want 1", k, n)
		}
	}
}
