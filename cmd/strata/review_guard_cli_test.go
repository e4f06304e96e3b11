package main

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// reviewed is a project (ownerProject) whose sales for 2024-01-01..03 are
// current at version 1 (amount 1) and staged at version 2 (amount 2) by a
// review backfill, whose id it returns.
func reviewed(t *testing.T, bin string) (dir, id string) {
	t.Helper()
	dir = ownerProject(t, nil)
	if out, code := strataproc.Run(t, bin, "backfill", dir, "main", "--from", "2024-01-01", "--to", "2024-01-03"); code != 0 {
		t.Fatalf("backfill: %d\n%s", code, out)
	}
	writeProject(t, dir, map[string]string{"blocks/sales.sql": "SELECT $partition_key AS day, 2 AS amount\n"})
	if out, code := strataproc.Run(t, bin, "backfill", dir, "main", "--from", "2024-01-01", "--to", "2024-01-03", "--reprocess", "all", "--publish", "review"); code != 0 || !strings.Contains(out, "ready for review") {
		t.Fatalf("review backfill: %d\n%s", code, out)
	}
	out, _ := strataproc.Run(t, bin, "backfill", "list", dir, "--format", "json")
	var list []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 2 {
		t.Fatalf("backfill list: %v\n%s", err, out)
	}
	return dir, list[0].ID
}

// TestRollbackCannotMakeAStagedVersionCurrent: `strata rollback` made the
// version a review staged current, bypassing its checks and promote.
func TestRollbackCannotMakeAStagedVersionCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir, _ := reviewed(t, bin)
	out, code := strataproc.Run(t, bin, "rollback", dir, "main", "sales", "--partition", "2024-01-02", "--to-version", "2")
	if code == 0 || !strings.Contains(out, "version 2 was never current") || !strings.Contains(out, "strata backfill promote") {
		t.Fatalf("rollback to a staged version: exit %d\n%s", code, out)
	}
	if out, _ := strataproc.Run(t, bin, "preview", dir, "main", "sales", "--partition", "2024-01-02", "--format", "json"); !strings.Contains(strings.Join(strings.Fields(out), ""), `"2024-01-02","2024-01-02",1]`) {
		t.Fatalf("the refused rollback changed the data:\n%s", out)
	}
}

// TestBackfillRollbackSuggestsACommandThatRuns: the refusal to roll back a
// backfill that published as it ran suggested `strata rollback DIR
// PRODUCT ...`, which the CLI refused (it took a pipeline and a block).
// The command it suggests now runs, as printed.
func TestBackfillRollbackSuggestsACommandThatRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := ownerProject(t, nil)
	for _, amount := range []string{"1", "2"} {
		writeProject(t, dir, map[string]string{"blocks/sales.sql": "SELECT $partition_key AS day, " + amount + " AS amount\n"})
		if out, code := strataproc.Run(t, bin, "backfill", dir, "main", "--from", "2024-01-01", "--to", "2024-01-02", "--reprocess", "all"); code != 0 {
			t.Fatalf("backfill: %d\n%s", code, out)
		}
	}
	out, _ := strataproc.Run(t, bin, "backfill", "list", dir, "--format", "json")
	var list []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 2 {
		t.Fatalf("backfill list: %v\n%s", err, out)
	}
	out, code := strataproc.Run(t, bin, "backfill", "rollback", dir, list[0].ID)
	m := regexp.MustCompile("`strata (rollback [^`]+)`").FindStringSubmatch(out)
	if code == 0 || m == nil {
		t.Fatalf("backfill rollback of a partition backfill: exit %d\n%s", code, out)
	}
	if strings.Contains(m[1], "PRODUCT") || strings.Contains(m[1], "KEY") {
		t.Fatalf("the suggested command has placeholders: %s", m[1])
	}
	if out, code := strataproc.Run(t, bin, strings.Fields(m[1])...); code != 0 || !strings.Contains(out, "sales 2024-01-01: version 1 is current") {
		t.Fatalf("strata %s: exit %d\n%s", m[1], code, out)
	}
}

// TestConcurrentPromotesThroughTheAPI: three promotes of one review at once
// (a double click, the UI and the CLI) all answered 200, counting 3× the
// staged versions, and a later discard turned the promoted backfill
// cancelled. One wins; the others get 409 naming it. Through the same
// server: a malformed only is 400, and a rollback to a staged version 409.
func TestConcurrentPromotesThroughTheAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir, id := reviewed(t, bin)
	srv := strataproc.Start(t, bin, dir, "0123456789abcdef-test")

	if code, body, _ := srv.Request(http.MethodPost, "/products/sales/rollback", `{"partition":"2024-01-02","version":2}`); code != http.StatusConflict || !strings.Contains(string(body), "never current") {
		t.Fatalf("API rollback to a staged version: %d %s", code, body)
	}
	if code, body, _ := srv.Request(http.MethodPost, "/backfills/"+id+"/promote", `{"only":"yesterday"}`); code != http.StatusBadRequest || !strings.Contains(string(body), "want one day partition key of pipeline main") {
		t.Fatalf("promote with a malformed only: %d %s", code, body)
	}

	type answer struct {
		code int
		body string
	}
	answers := make([]answer, 3)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, body, err := srv.Request(http.MethodPost, "/backfills/"+id+"/promote", `{}`)
			if err != nil {
				t.Error(err)
			}
			answers[i] = answer{code, string(body)}
		}()
	}
	wg.Wait()
	won, versions := 0, 0
	for _, a := range answers {
		switch a.code {
		case http.StatusOK:
			var res struct{ Versions, Remaining int }
			if err := json.Unmarshal([]byte(a.body), &res); err != nil {
				t.Fatal(err)
			}
			won++
			versions += res.Versions
		case http.StatusConflict:
			if !strings.Contains(a.body, "a promote of it started at") && !strings.Contains(a.body, "already promoted: the promote at") {
				t.Errorf("a losing promote does not name the one that won: %s", a.body)
			}
		default:
			t.Errorf("promote: %d %s", a.code, a.body)
		}
	}
	if won != 1 || versions != 3 {
		t.Fatalf("%d promotes answered 200, making %d versions current; want 1 making 3: %+v", won, versions, answers)
	}
	if code, body, _ := srv.Request(http.MethodPost, "/backfills/"+id+"/discard", ``); code != http.StatusConflict {
		t.Fatalf("discard of a promoted backfill: %d %s", code, body)
	}
	var st strataproc.Backfill
	srv.Call(t, http.MethodGet, "/backfills/"+id, "", &st)
	if st.State != "succeeded" {
		t.Fatalf("after the promotes and a discard: %s %q", st.State, st.Message)
	}
	srv.Stop(t)
}
