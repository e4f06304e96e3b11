package faults

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	_ "github.com/duckdb/duckdb-go/v2" // the warehouse is read directly, not through strata
)

// warehouse is a project's DuckDB file, opened by the suite while no strata
// process holds it (after a kill, or after the last process exited).
type warehouse struct{ db *sql.DB }

func openWarehouse(projectDir string) (*warehouse, error) {
	if w, ok, err := openLake(projectDir); ok {
		return w, err
	}
	path := filepath.Join(projectDir, ".strata", "warehouse.duckdb")
	// Read-write: a file a kill -9 left has a WAL to replay first. The
	// suite only reads, and closes before the next strata process starts.
	db, err := sql.Open("duckdb", path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return &warehouse{db}, nil
}

func (w *warehouse) close() error { return w.db.Close() }

func (w *warehouse) count(query string, args ...any) (int, error) {
	var n int
	if err := w.db.QueryRow(query, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("%s: %w", strings.Join(strings.Fields(query), " "), err)
	}
	return n, nil
}

// content is what a range holds: per "product/partition", the current
// version's row count and an order-independent hash of its rows.
type content map[string]string

// readContent reads the current rows of every product of the catalog for
// the partitions between from and to (keys of days; weeks are compared
// whole, by their keys' range of days).
func (w *warehouse) readContent(from, to string, weeks []string) (content, error) {
	rows, err := w.db.Query(`SELECT DISTINCT product FROM _strata.versions ORDER BY 1`)
	if err != nil {
		return nil, err
	}
	var products []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			rows.Close()
			return nil, err
		}
		products = append(products, p)
	}
	rows.Close()
	out := content{}
	for _, p := range products {
		q := fmt.Sprintf(`SELECT _partition, count(*), sum(hash(t)::HUGEINT)::VARCHAR FROM %q t
			WHERE (_partition BETWEEN ? AND ?) OR list_contains(?, _partition) GROUP BY 1`, p)
		rows, err := w.db.Query(q, from, to, weeks)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", p, err)
		}
		for rows.Next() {
			var part, sum string
			var n int
			if err := rows.Scan(&part, &n, &sum); err != nil {
				rows.Close()
				return nil, err
			}
			out[p+"/"+part] = fmt.Sprintf("%d rows, hash %s", n, sum)
		}
		rows.Close()
	}
	return out, nil
}

// diff lists what differs between want and got, sorted.
func (want content) diff(got content) []string {
	var out []string
	for k, v := range want {
		if g, ok := got[k]; !ok {
			out = append(out, fmt.Sprintf("%s: missing (want %s)", k, v))
		} else if g != v {
			out = append(out, fmt.Sprintf("%s: %s, want %s", k, g, v))
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			out = append(out, fmt.Sprintf("%s: unexpected %s", k, v))
		}
	}
	sort.Strings(out)
	return out
}

// violations collects broken invariants with their evidence.
type violations []string

func (v *violations) addf(format string, args ...any) { *v = append(*v, fmt.Sprintf(format, args...)) }

// zero records a violation when query counts anything.
func (v *violations) zero(w *warehouse, what, query string, args ...any) {
	n, err := w.count(query, args...)
	if err != nil {
		v.addf("%s: %v", what, err)
	} else if n != 0 {
		v.addf("%s: %d", what, n)
	}
}

// checkAnyTime holds after every kill as well as at the end.
func (w *warehouse) checkAnyTime(id, publish string) violations {
	var v violations
	v.zero(w, "(product, partition) pairs with more than one current version",
		`SELECT count(*) FROM (SELECT product, partition FROM _strata.versions WHERE is_current GROUP BY 1, 2 HAVING count(*) > 1)`)
	v.zero(w, "(product, partition) pairs with more than one version from the backfill",
		`SELECT count(*) FROM (SELECT product, partition FROM _strata.versions WHERE starts_with(run_id, ?) GROUP BY 1, 2 HAVING count(*) > 1)`, id+":")
	v.zero(w, "partition runs started again after they had succeeded",
		`SELECT count(*) FROM _strata.run_events r WHERE r.backfill_id = ? AND r.block_id = '' AND r.state = 'running'
		AND r.seq > (SELECT min(s.seq) FROM _strata.run_events s WHERE s.run_id = r.run_id AND s.block_id = '' AND s.state = 'succeeded')`, id)
	if publish == "atomic" {
		// The promote is one transaction: before it none of the
		// backfill's versions is current, after it all are.
		// (All but those a compare-and-set held back: newer work another
		// run published on their partition is current instead.)
		cur, err1 := w.count(`SELECT count(*) FROM _strata.versions WHERE starts_with(run_id, ?) AND is_current`, id+":")
		all, err2 := w.count(`SELECT count(*) FROM _strata.versions WHERE starts_with(run_id, ?)`, id+":")
		held, err3 := w.count(`SELECT count(*) FROM _strata.versions b WHERE starts_with(b.run_id, ?) AND NOT b.is_current AND EXISTS
			(SELECT 1 FROM _strata.versions o WHERE o.product = b.product AND o.partition = b.partition AND NOT starts_with(o.run_id, ?)
			AND o.version > greatest(coalesce(b.based_on, 0), 0))`, id+":", id+":")
		switch {
		case err1 != nil || err2 != nil || err3 != nil:
			v.addf("atomic visibility: %v %v %v", err1, err2, err3)
		case cur != 0 && cur != all-held:
			v.addf("atomic backfill: %d of its %d versions are current, %d held back as conflicts (a promote is all or nothing)", cur, all, held)
		}
	}
	return v
}

// status is the backfill's accounting as `strata backfill status --format
// json` reports it.
type status struct {
	Backfill struct {
		State   string `json:"state"`
		Message string `json:"message"`
		Total   int    `json:"total"`
	} `json:"backfill"`
	Counts map[string]int `json:"counts"` // with "conflict": partitions held back for newer work
}

// checkEnd holds once the backfill has finished.
func (w *warehouse) checkEnd(t Trial, projectDir, id string, st status, ref content) violations {
	v := w.checkAnyTime(id, t.Publish)
	existing := 0
	if t.Existing != "" {
		existing = 1
	}
	conflicts := st.Counts["conflict"]
	switch {
	case st.Backfill.State == "succeeded" && conflicts == 0:
	case st.Backfill.State == "needs_attention" && conflicts > 0 && t.Meddle != "":
		// Newer work on the meddled day (and the week its run rolled up):
		// held back, listed, not made current.
	default:
		v.addf("backfill ended %s with %d conflicts (meddled %q): %s", st.Backfill.State, conflicts, t.Meddle, st.Backfill.Message)
	}
	// The meddled day's week may also end skipped, with the reason: the
	// day it feeds was held back as a conflict. The day itself never is:
	// a backfill runs the plan it made at launch, so a day the plain run
	// got to while the backfill was stopped, before the backfill had
	// started it, is a conflict as it is for an uninterrupted backfill.
	// Nothing else may be skipped beyond the day current before the
	// backfill.
	meddleSkipped := 0
	if t.Meddle != "" {
		// (The day itself is skipped only when a keep-newer settled its
		// conflict: settleAtomic, for an atomic backfill.)
		n, err := w.count(`SELECT count(*) FROM (SELECT any_value(partition_key) AS k FROM _strata.run_events
			WHERE backfill_id = ? AND block_id = '' GROUP BY run_id HAVING arg_max(state, seq) = 'skipped') WHERE k IN (?, ?) AND k <> ?`,
			id, weekOf(t.Meddle), t.Meddle, t.Existing)
		if err != nil {
			v.addf("count skipped meddled partitions: %v", err)
		}
		meddleSkipped = n
	}
	want := map[string]int{"succeeded": trialPartitions - existing - conflicts - meddleSkipped, "skipped": existing + meddleSkipped, "failed": 0, "cancelled": 0, "running": 0, "queued": 0}
	for k, n := range want {
		if st.Counts[k] != n {
			v.addf("status counts %s = %d, want %d (counts %v; skipped: %s)", k, st.Counts[k], n, st.Counts, w.skippedRuns(id))
		}
	}
	// Every stored row belongs to a version once the processes have
	// stopped: the rows of versions retention dropped, which the writer
	// deletes in batches, are gone after a clean stop, and after a kill the
	// next open deleted them.
	tables, err := w.db.Query(`SELECT table_name FROM _strata.storage ORDER BY 1`)
	if err != nil {
		v.addf("list storage tables: %v", err)
	} else {
		var names []string
		for tables.Next() {
			var n string
			if err := tables.Scan(&n); err == nil {
				names = append(names, n)
			}
		}
		tables.Close()
		for _, n := range names {
			v.zero(w, "rows of "+n+" that belong to no version", fmt.Sprintf(`SELECT count(*) FROM _strata.%q s ANTI JOIN _strata.versions v
				ON v.storage_table = ? AND v.partition = s._partition AND v.version = s._version`, n), n)
		}
	}
	// Never overwrite newer work: a version of the backfill is current
	// only over versions it planned against, never over one another run
	// published after its launch (that is a conflict, settled only by
	// promote-anyway, which the suite never says).
	v.zero(w, "current versions from the backfill made current over newer work it did not plan against",
		`SELECT count(*) FROM _strata.versions c JOIN _strata.versions o ON o.product = c.product AND o.partition = c.partition
		WHERE c.is_current AND starts_with(c.run_id, ?) AND NOT starts_with(o.run_id, ?) AND o.version > greatest(coalesce(c.based_on, 0), 0)`, id+":", id+":")
	// The accounting against the catalog: every partition run counted
	// succeeded has its versions current (unless a plain run published the
	// meddled day after it: then that newer work is current), and every
	// current version the backfill wrote belongs to a run counted succeeded.
	meddled := []string{}
	if t.Meddle != "" {
		meddled = append(meddled, t.Meddle, weekOf(t.Meddle))
	}
	v.zero(w, "partition runs counted succeeded without a current version from them",
		`SELECT count(*) FROM (SELECT run_id, any_value(partition_key) AS part FROM _strata.run_events WHERE backfill_id = ? AND block_id = '' GROUP BY run_id HAVING arg_max(state, seq) = 'succeeded') r
		WHERE NOT list_contains(?, r.part) AND NOT EXISTS (SELECT 1 FROM _strata.versions v WHERE v.run_id = r.run_id AND v.is_current)`, id, meddled)
	v.zero(w, "current versions from the backfill whose partition run is not counted succeeded",
		`SELECT count(*) FROM _strata.versions v WHERE starts_with(v.run_id, ?) AND v.is_current AND v.run_id NOT IN
		(SELECT run_id FROM _strata.run_events WHERE backfill_id = ? AND block_id = '' GROUP BY run_id HAVING arg_max(state, seq) = 'succeeded')`, id+":", id)
	if n, err := w.count(`SELECT count(DISTINCT run_id) FROM _strata.versions WHERE starts_with(run_id, ?) AND is_current`, id+":"); err != nil || n > st.Counts["succeeded"] || (t.Meddle == "" && n != st.Counts["succeeded"]) {
		v.addf("partition runs with current versions from the backfill = %d (%v), counted succeeded %d", n, err, st.Counts["succeeded"])
	}
	// Every version the backfill wrote records the pipeline version it
	// was launched with (its snapshot), which is kept on disk.
	var snap string
	if err := w.db.QueryRow(`SELECT coalesce(snapshot, '') FROM _strata.backfills WHERE backfill_id = ?`, id).Scan(&snap); err != nil || snap == "" {
		v.addf("the backfill records no snapshot (%v)", err)
	} else {
		v.zero(w, "versions from the backfill that do not record its snapshot "+snap,
			`SELECT count(*) FROM _strata.versions WHERE starts_with(run_id, ?) AND coalesce(snapshot, '') <> ?`, id+":", snap)
		if _, err := os.Stat(filepath.Join(projectDir, ".strata", "snapshots", snap)); err != nil {
			v.addf("the backfill's snapshot is not kept: %v", err)
		}
	}
	if t.Existing != "" {
		v.zero(w, "the day current before the backfill was rewritten by it",
			`SELECT count(*) FROM _strata.versions WHERE partition = ? AND starts_with(run_id, ?)`, t.Existing, id+":")
	}
	got, err := w.readContent(t.From, t.To, weekKeys(t.From))
	if err != nil {
		v.addf("read content: %v", err)
		return v
	}
	wantContent := ref.within(t)
	if t.Meddle != "" {
		// The meddled day's run rolled its week up from that one day; a
		// conflict keeps that newer work current, as it must.
		for k := range wantContent {
			if strings.HasSuffix(k, "/"+weekOf(t.Meddle)) {
				delete(wantContent, k)
				delete(got, k)
			}
		}
	}
	for _, d := range wantContent.diff(got) {
		v.addf("content differs from the clean reference run: %s", d)
	}
	return v
}

// within is the part of the reference a trial's range covers.
func (ref content) within(t Trial) content {
	weeks := weekKeys(t.From)
	out := content{}
	for k, val := range ref {
		part := k[strings.LastIndex(k, "/")+1:]
		if (part >= t.From && part <= t.To) || part == weeks[0] || part == weeks[1] {
			out[k] = val
		}
	}
	return out
}

// weekKeys are the ISO week keys of a trial's two weeks (2024 starts on a
// Monday, so its weeks are 2024-W01 from January 1).
func weekKeys(from string) []string {
	n := 0
	for d := refFrom; d < from; d = addDays(d, 7) {
		n++
	}
	return []string{fmt.Sprintf("2024-W%02d", n+1), fmt.Sprintf("2024-W%02d", n+2)}
}

// weekOf is the ISO week key of a day of 2024 (its weeks start on January 1).
func weekOf(day string) string {
	n := 0
	for d := refFrom; d <= day; d = addDays(d, 7) {
		n++
	}
	return fmt.Sprintf("2024-W%02d", n)
}

// skippedRuns lists the backfill's skipped partitions with their reasons,
// as evidence for a count that is off.
func (w *warehouse) skippedRuns(id string) string {
	rows, err := w.db.Query(`SELECT any_value(partition_key), arg_max(error, seq) FROM _strata.run_events
		WHERE backfill_id = ? AND block_id = '' GROUP BY run_id HAVING arg_max(state, seq) = 'skipped' ORDER BY 1`, id)
	if err != nil {
		return err.Error()
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var k, reason string
		if rows.Scan(&k, &reason) == nil {
			out = append(out, k+" ("+reason+")")
		}
	}
	return strings.Join(out, ", ")
}
