package faults

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/strataproc"
)

// RunScenario plays one scenario and returns the invariants it broke.
func (d *Driver) RunScenario(t testing.TB, s Scenario) violations {
	t.Helper()
	dir := filepath.Join(t.TempDir(), fmt.Sprintf("scenario%d", s.N))
	d.must(t, "init", dir, "--demo")
	if s.Kind == "takeover" {
		return d.takeover(t, dir, s)
	}
	return d.promoteRace(t, dir, s)
}

// must runs a strata command that has to succeed and returns its output.
func (d *Driver) must(t testing.TB, args ...string) string {
	t.Helper()
	out, code := strataproc.Run(t, d.Bin, args...)
	if code != 0 {
		t.Fatalf("strata %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

var launchedAnywhere = regexp.MustCompile(`(?m)^backfill (bf_\S+): pipeline`)

// answer is one racer's HTTP answer (err set when the kill cut it).
type answer struct {
	r    racer
	code int
	body string
	err  error
}

// promoteRace stages a review backfill, fires the racers at one server at
// once, and reads the outcome from the warehouse.
func (d *Driver) promoteRace(t testing.TB, dir string, s Scenario) violations {
	d.must(t, "backfill", dir, "clv", "--from", raceFrom, "--to", raceTo)
	sqlFile := filepath.Join(dir, "blocks", "daily_customer_metrics.sql")
	src, err := os.ReadFile(sqlFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sqlFile, []byte(strings.Replace(string(src), "round(sum(amount), 2)", "round(sum(amount), 0)", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := d.must(t, "backfill", dir, "clv", "--from", raceFrom, "--to", raceTo, "--reprocess", "all", "--publish", "review")
	m := launchedAnywhere.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("review backfill printed no id:\n%s", out)
	}
	id := m[1]

	srv := strataproc.Start(t, d.Bin, dir, token)
	answers := make([]answer, len(s.Promotes))
	var wg sync.WaitGroup
	for i, r := range s.Promotes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(r.Delay)
			body := `{}`
			if r.Only != "" {
				body = `{"only": "` + r.Only + `"}`
			}
			if r.Op == "discard" {
				body = ""
			}
			code, resp, err := srv.Request(http.MethodPost, "/backfills/"+id+"/"+r.Op, body)
			answers[i] = answer{r, code, string(resp), err}
		}()
	}
	killed := s.KillPromote > 0
	if killed {
		time.Sleep(s.KillPromote)
		srv.Kill()
		wg.Wait()
	} else {
		wg.Wait()
		srv.Stop(t)
	}
	for _, a := range answers {
		t.Logf("%s: %s %q: %d %v %.200s", s.label(), a.r.Op, a.r.Only, a.code, a.err, a.body)
	}

	var v violations
	w, err := openWarehouse(dir)
	if err != nil {
		v.addf("open: %v", err)
		return v
	}
	v.zero(w, "switches of the backfill from a version to itself (counted as changes)",
		`SELECT count(*) FROM _strata.switch_log WHERE batch = ? AND from_version = to_version`, id)
	v.zero(w, "partitions the backfill's promotes switched more than once",
		`SELECT count(*) FROM (SELECT product, partition FROM _strata.switch_log WHERE batch = ? GROUP BY 1, 2 HAVING count(*) > 1)`, id)
	v.zero(w, "partitions a promote switched that do not read its version now",
		`SELECT count(*) FROM _strata.switch_log s LEFT JOIN _strata.current c ON c.product = s.product AND c.partition = s.partition
		WHERE s.batch = ? AND coalesce(c.version, 0) <> s.to_version`, id)
	switched, err1 := w.count(`SELECT count(*) FROM _strata.switch_log WHERE batch = ?`, id)
	recorded, err2 := w.count(`SELECT coalesce(sum(versions), 0)::INTEGER FROM _strata.backfill_promotions WHERE backfill_id = ?`, id)
	staged, err3 := w.count(`SELECT count(*) FROM _strata.pins WHERE owner = ?`, id)
	var lastMsg string
	err4 := w.db.QueryRow(`SELECT arg_max(message, event_at) FROM _strata.backfill_events WHERE backfill_id = ?`, id).Scan(&lastMsg)
	w.close()
	if err := firstErr(err1, err2, err3, err4); err != nil {
		v.addf("read the promotes: %v", err)
		return v
	}

	answered := 0
	for _, a := range answers {
		switch {
		case a.err != nil || (killed && a.code == 0):
			// Cut by the kill: it may or may not have committed.
		case a.code == http.StatusOK && a.r.Op == "promote":
			var res struct{ Versions int }
			_ = json.Unmarshal([]byte(a.body), &res)
			answered += res.Versions
		case a.code == http.StatusOK:
		case a.code == http.StatusConflict && a.r.Op == "promote":
			if !strings.Contains(a.body, "started at") && !strings.Contains(a.body, "already promoted") && !strings.Contains(a.body, "not ready for review") &&
				!strings.Contains(a.body, "no staged version starting in") {
				v.addf("a refused promote does not say what won: %.300s", a.body)
			}
		case a.code == http.StatusConflict:
		default:
			v.addf("%s %q answered %d: %.300s", a.r.Op, a.r.Only, a.code, a.body)
		}
	}
	if killed {
		// What the answers said cannot be held against a kill: a promote
		// may have committed its switch and not its record. The next
		// promote settles the state from the catalog, or promotes what is
		// still staged.
		out, code := strataproc.Run(t, d.Bin, "backfill", "promote", dir, id)
		t.Logf("%s: promote after the kill: exit %d %.300s", s.label(), code, out)
		if w, err = openWarehouse(dir); err != nil {
			v.addf("open after the kill: %v", err)
			return v
		}
		staged, err3 = w.count(`SELECT count(*) FROM _strata.pins WHERE owner = ?`, id)
		err4 = w.db.QueryRow(`SELECT arg_max(message, event_at) FROM _strata.backfill_events WHERE backfill_id = ?`, id).Scan(&lastMsg)
		w.close()
		if err := firstErr(err3, err4); err != nil {
			v.addf("read after the kill: %v", err)
			return v
		}
	} else if answered != switched || recorded != switched {
		v.addf("promotes answered %d versions made current, recorded %d, and switched %d", answered, recorded, switched)
	}
	st := d.backfillStatus(t, dir, id)
	switch {
	case st.Backfill.State == "review" && staged == 0:
		v.addf("backfill says review with nothing staged: %q", st.Backfill.Message)
	case st.Backfill.State == "succeeded" && staged > 0:
		v.addf("backfill says succeeded with %d versions staged", staged)
	case st.Backfill.State == "cancelled" && strings.HasPrefix(lastMsg, "discarded 0 staged versions"):
		v.addf("a discard that dropped nothing made the backfill cancelled: %q", lastMsg)
	}
	return v
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// takeoverDay is the day clv writes and the claimant tries to.
const takeoverDay = "2024-01-02"

// takeover adds a second pipeline declaring clv's product and tries it.
func (d *Driver) takeover(t testing.TB, dir string, s Scenario) violations {
	var v violations
	d.must(t, "run", dir, "clv", "--partition", takeoverDay)
	if !s.Early {
		d.must(t, "run", dir, "clv", "--partition", takeoverDay)
	}
	claim := map[string]string{
		"pipelines/" + s.Claimant + ".yaml": `partitions: {interval: day, timezone: America/New_York, start: "2020-01-01"}
blocks:
  - id: copy_metrics
    product: daily_customer_metrics
`,
		"blocks/copy_metrics.sql": "SELECT 99::BIGINT AS customer_id, $partition_key AS day, 'copy' AS extra\n",
	}
	for p, c := range claim {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if s.Early {
		if out, code := strataproc.Run(t, d.Bin, "run", dir, "clv", "--partition", takeoverDay); code != 0 {
			v.addf("clv stopped running once %s declared its product: exit %d\n%s", s.Claimant, code, out)
		}
	}
	for i := range s.Attempts {
		day := addDays(raceFrom, i)
		if s.Via == "cli" {
			out, code := strataproc.Run(t, d.Bin, "run", dir, s.Claimant, "--partition", day)
			if code == 0 || !strings.Contains(out, "pipelines/clv.yaml") || !strings.Contains(out, "pipelines/"+s.Claimant+".yaml") {
				v.addf("run of the claimant: exit %d, want a refusal naming both files\n%s", code, out)
			}
			continue
		}
		srv := strataproc.Start(t, d.Bin, dir, token)
		code, body, err := srv.Request(http.MethodPost, "/pipelines/"+s.Claimant+"/runs?wait=true", `{"partition": "`+day+`"}`)
		if err != nil || code != http.StatusUnprocessableEntity {
			v.addf("API run of the claimant: %d %v %.300s, want 422", code, err, body)
		}
		code, body, err = srv.Request(http.MethodPost, "/pipelines/clv/runs?wait=true", `{"partition": "`+addDays(takeoverDay, 1)+`"}`)
		if err != nil || code != http.StatusOK || !strings.Contains(string(body), `"succeeded"`) {
			v.addf("API run of the owner: %d %v %.300s", code, err, body)
		}
		srv.Stop(t)
	}
	if out, code := strataproc.Run(t, d.Bin, "run", dir, "clv", "--partition", takeoverDay); code != 0 {
		v.addf("clv is not runnable after the claims: exit %d\n%s", code, out)
	}
	if out, code := strataproc.Run(t, d.Bin, "rollback", dir, "daily_customer_metrics", "--partition", takeoverDay, "--to-version", "2"); code != 0 {
		v.addf("rollback of clv's product: exit %d\n%s", code, out)
	}
	w, err := openWarehouse(dir)
	if err != nil {
		v.addf("open: %v", err)
		return v
	}
	defer w.close()
	v.zero(w, "versions of daily_customer_metrics another pipeline wrote",
		`SELECT count(*) FROM _strata.versions v WHERE v.product = 'daily_customer_metrics' AND NOT EXISTS
		(SELECT 1 FROM _strata.run_events r WHERE r.run_id = v.run_id AND r.pipeline = 'clv')`)
	v.zero(w, "runs of the claimant that published anything",
		`SELECT count(*) FROM _strata.versions v JOIN _strata.run_events r ON r.run_id = v.run_id WHERE r.pipeline = ?`, s.Claimant)
	var owner string
	if err := w.db.QueryRow(`SELECT pipeline FROM _strata.product_owners WHERE product = 'daily_customer_metrics'`).Scan(&owner); err != nil || owner != "clv" {
		v.addf("recorded owner of daily_customer_metrics: %q %v, want clv", owner, err)
	}
	got, err := w.readContent(takeoverDay, takeoverDay, nil)
	if err != nil {
		v.addf("read: %v", err)
		return v
	}
	key := "daily_customer_metrics/" + takeoverDay
	if got[key] != d.ref[key] {
		v.addf("%s holds %s after the rollback, want clv's %s", key, got[key], d.ref[key])
	}
	return v
}
