package server

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/engine"
)

// failingOrders makes the demo's raw_orders fail on some days, in two ways.
func failingOrders(t *testing.T, e *env, fails string) {
	t.Helper()
	file := filepath.Join(e.dir, "blocks", "raw_orders", "raw_orders.go")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	if i := strings.Index(s, "\n\t// failures\n"); i >= 0 {
		j := strings.Index(s, "\t// end failures\n")
		s = s[:i+1] + s[j+len("\t// end failures\n"):]
	}
	s = strings.Replace(s, "\tp := ctx.Partition\n", "\t// failures\n"+fails+"\t// end failures\n\tp := ctx.Partition\n", 1)
	if err := os.WriteFile(file, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.reload(); err != nil {
		t.Fatal(err)
	}
}

func waitBackfill(t *testing.T, e *env, id string) engine.BackfillStatus {
	t.Helper()
	var st engine.BackfillStatus
	deadline := time.Now().Add(3 * time.Minute)
	for {
		e.call(http.MethodGet, "/api/v1/backfills/"+id, nil, http.StatusOK, &st)
		if st.State.Final() {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("backfill did not end: %+v", st)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestBackfillFailureGroups: failures group by block and error class (the
// day in the message does not split a group); retrying one group runs its
// partitions only, and the other group stays failed with its attempts.
func TestBackfillFailureGroups(t *testing.T) {
	e := newEnv(t)
	failingOrders(t, e, `	switch ctx.Partition.Key {
	case "2024-03-04", "2024-03-05", "2024-03-07":
		return nil, fmt.Errorf("source offline for %s: 503 after 3 tries", ctx.Partition.Key)
	case "2024-03-06":
		return nil, fmt.Errorf("bad row 17: amount \"n/a\" is not a number")
	}
`)
	var st engine.BackfillStatus
	e.call(http.MethodPost, "/api/v1/backfills", map[string]any{"pipeline": "clv", "from": "2024-03-03", "to": "2024-03-08", "concurrency": 2}, http.StatusCreated, &st)
	if st = waitBackfill(t, e, st.ID); st.State != engine.StateFailed {
		t.Fatalf("backfill: %+v", st)
	}
	var out struct{ Groups []engine.FailureGroup }
	e.call(http.MethodGet, "/api/v1/backfills/"+st.ID+"/failures", nil, http.StatusOK, &out)
	var keys []string
	for _, g := range out.Groups {
		var ks []string
		for _, p := range g.Partitions {
			ks = append(ks, p.Key)
		}
		keys = append(keys, g.Block+" "+g.Class+" "+strings.Join(ks, ","))
	}
	got := strings.Join(keys, "\n")
	if !strings.HasPrefix(got, "raw_orders raw_orders: Load returned an error: source offline for <time>: <n> after <n> tries 2024-03-04,2024-03-05,2024-03-07\nraw_orders raw_orders: Load returned an error: bad row <n>: amount <value> is not a number 2024-03-06") {
		t.Fatalf("groups:\n%s", got)
	}
	if out.Groups[0].Example == "" || !strings.Contains(out.Groups[0].Example, "2024-03-04") {
		t.Fatalf("the example keeps the message as it was: %+v", out.Groups[0])
	}

	// Bad retries: 400 naming the partition, nothing runs.
	data := e.call(http.MethodPost, "/api/v1/backfills/"+st.ID+"/retry", map[string]any{"partitions": []string{"2024-03-03"}}, http.StatusBadRequest, nil)
	if ae := apiError(t, data); !strings.Contains(ae.Message, "2024-03-03 is succeeded") {
		t.Fatalf("retrying a succeeded partition: %+v", ae)
	}
	e.call(http.MethodPost, "/api/v1/backfills/"+st.ID+"/retry", map[string]any{"partitions": []string{"1999-01-01"}}, http.StatusBadRequest, nil)
	e.call(http.MethodPost, "/api/v1/backfills/"+st.ID+"/retry", map[string]any{"partitions": []string{}}, http.StatusBadRequest, nil)

	// The source is back: the first group is retried with the current code.
	failingOrders(t, e, `	if ctx.Partition.Key == "2024-03-06" {
		return nil, fmt.Errorf("bad row 17: amount \"n/a\" is not a number")
	}
`)
	e.call(http.MethodPost, "/api/v1/backfills/"+st.ID+"/retry?use_current_code=true", map[string]any{"partitions": []string{"2024-03-04", "2024-03-05", "2024-03-07"}}, http.StatusOK, nil)
	if st = waitBackfill(t, e, st.ID); st.State != engine.StateFailed {
		t.Fatalf("after the group's retry (the other group still failed): %+v", st)
	}
	var page struct{ Partitions []engine.PartitionStatus }
	e.call(http.MethodGet, "/api/v1/backfills/"+st.ID+"/partitions?limit=100", nil, http.StatusOK, &page)
	states := map[string]string{}
	for _, p := range page.Partitions {
		states[p.Key] = string(p.State) + " " + p.RunID
	}
	for _, k := range []string{"2024-03-04", "2024-03-05", "2024-03-07"} {
		if !strings.HasPrefix(states[k], "succeeded ") || !strings.HasSuffix(states[k], "~2") {
			t.Errorf("%s retried: %s", k, states[k])
		}
	}
	if s := states["2024-03-06"]; !strings.HasPrefix(s, "failed ") || strings.Contains(s, "~") {
		t.Errorf("2024-03-06 is not in the group: not run again (one attempt): %s", s)
	}
	e.call(http.MethodGet, "/api/v1/backfills/"+st.ID+"/failures", nil, http.StatusOK, &out)
	if len(out.Groups) != 1 || out.Groups[0].Count != 1 || out.Groups[0].Partitions[0].Key != "2024-03-06" {
		t.Fatalf("groups after the retry: %+v", out.Groups)
	}
	e.call(http.MethodGet, "/api/v1/backfills/bf_nope/failures", nil, http.StatusNotFound, nil)
}
