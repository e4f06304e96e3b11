package faults

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/strataproc"
)

const token = "faults-0123456789abcdef"

// Driver runs trials against one built binary and one reference run.
type Driver struct {
	Bin string
	ref content
}

var reference struct {
	once sync.Once
	c    content
	err  error
}

// NewDriver builds the binary and runs the clean reference backfill once
// per test process.
func NewDriver(t testing.TB) *Driver {
	t.Helper()
	bin := strataproc.Binary(t)
	reference.once.Do(func() { reference.c, reference.err = referenceRun(t, bin) })
	if reference.err != nil {
		t.Fatal(reference.err)
	}
	return &Driver{Bin: bin, ref: reference.c}
}

// referenceRun backfills the whole reference range of a fresh demo project
// without faults and reads what it holds.
func referenceRun(t testing.TB, bin string) (content, error) {
	dir := filepath.Join(t.TempDir(), "reference")
	if out, code := strataproc.Run(t, bin, "init", dir, "--demo"); code != 0 {
		return nil, fmt.Errorf("init: %s", out)
	}
	to := addDays(refFrom, 7*refWeeks-1)
	if out, code := strataproc.Run(t, bin, "backfill", dir, "clv", "--from", refFrom, "--to", to, "--concurrency", "4"); code != 0 {
		return nil, fmt.Errorf("reference backfill: exit %d\n%s", code, out)
	}
	w, err := openWarehouse(dir)
	if err != nil {
		return nil, err
	}
	defer w.close()
	var weeks []string
	for i := 1; i <= refWeeks; i++ {
		weeks = append(weeks, fmt.Sprintf("2024-W%02d", i))
	}
	c, err := w.readContent(refFrom, to, weeks)
	if err == nil && len(c) < 7*refWeeks {
		err = fmt.Errorf("the reference run holds only %d product partitions", len(c))
	}
	return c, err
}

// Run plays one trial and returns the invariants it broke, each with its
// evidence; log receives what happened (kills, outcomes).
func (d *Driver) Run(t testing.TB, tr Trial) violations {
	t.Helper()
	dir := filepath.Join(t.TempDir(), fmt.Sprintf("trial%d", tr.N))
	if out, code := strataproc.Run(t, d.Bin, "init", dir, "--demo"); code != 0 {
		t.Fatalf("init: %s", out)
	}
	if tr.Existing != "" {
		if out, code := strataproc.Run(t, d.Bin, "run", dir, "clv", "--partition", tr.Existing); code != 0 {
			t.Fatalf("run %s: %s", tr.Existing, out)
		}
	}
	var v violations
	id := ""
	for i, delay := range tr.Kills {
		var what string
		if tr.Mode == "cli" {
			id, what = d.cliStep(t, dir, tr, id, delay)
		} else {
			id, what = d.serverStep(t, dir, tr, id, delay)
		}
		t.Logf("%s: step %d: %s", tr.label(), i, what)
		w, err := openWarehouse(dir)
		if err != nil {
			v.addf("after kill %d: %v", i, err)
			return v
		}
		if id == "" {
			id = w.recordedBackfill()
		}
		if id != "" {
			for _, e := range w.checkAnyTime(id, tr.Publish) {
				v.addf("after kill %d: %s", i, e)
			}
		}
		w.close()
	}
	id = d.finish(t, dir, tr, id)
	st := d.backfillStatus(t, dir, id)
	t.Logf("%s: ended %s %q counts %v", tr.label(), st.Backfill.State, st.Backfill.Message, st.Counts)
	if tr.Publish == "atomic" && st.Backfill.State == "needs_attention" {
		// An atomic backfill that met newer work makes nothing current
		// until its conflicts are settled; then a user settles them (here
		// keeping the newer work), which promotes the rest at once.
		v = append(v, d.settleAtomic(t, dir, tr, id)...)
		st = d.backfillStatus(t, dir, id)
		t.Logf("%s: after keep-newer %s %q counts %v", tr.label(), st.Backfill.State, st.Backfill.Message, st.Counts)
	}
	w, err := openWarehouse(dir)
	if err != nil {
		v.addf("at the end: %v", err)
		return v
	}
	defer w.close()
	return append(v, w.checkEnd(tr, dir, id, st, d.ref)...)
}

// backfillStatus is what `strata backfill status DIR ID --format json` says.
func (d *Driver) backfillStatus(t testing.TB, dir, id string) status {
	t.Helper()
	out, code := strataproc.Run(t, d.Bin, "backfill", "status", dir, id, "--format", "json")
	var st status
	if code != 0 || json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &st) != nil {
		t.Fatalf("status: exit %d\n%s", code, out)
	}
	return st
}

func (tr Trial) label() string { return fmt.Sprintf("trial %d seed %d", tr.N, tr.Seed) }

func (tr Trial) specArgs() []string {
	args := []string{"--from", tr.From, "--to", tr.To, "--publish", tr.Publish, "--concurrency", fmt.Sprint(tr.Concurrency)}
	if tr.RatePerMin > 0 {
		args = append(args, "--rate", fmt.Sprintf("%d/m", tr.RatePerMin))
	}
	return args
}

func (tr Trial) specJSON() string {
	spec := map[string]any{"pipeline": "clv", "from": tr.From, "to": tr.To, "publish": tr.Publish,
		"concurrency": tr.Concurrency, "rate_per_min": tr.RatePerMin}
	if tr.Engine != "" {
		spec["engine"] = tr.Engine
	}
	raw, _ := json.Marshal(spec)
	return string(raw)
}

var launchedLine = regexp.MustCompile(`^backfill (bf_\S+): pipeline`)

// cliStep launches the backfill (id empty) or resumes it with the CLI and
// kills the process after delay. The id is "" when the kill came before
// the launch printed it (the warehouse then says whether it was recorded).
func (d *Driver) cliStep(t testing.TB, dir string, tr Trial, id string, delay time.Duration) (string, string) {
	args := append([]string{"backfill", dir, "clv"}, tr.specArgs()...)
	if id != "" {
		args = []string{"backfill", "resume", dir, id}
	}
	return d.cliRun(t, args, id, delay)
}

// cliRun runs `strata args...` (a backfill or its resume) and kills it
// with SIGKILL after delay; it returns the backfill id the launch printed
// (id when it was known, "" when the kill came first).
func (d *Driver) cliRun(t testing.TB, args []string, id string, delay time.Duration) (string, string) {
	cmd := exec.Command(d.Bin, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ids := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			if m := launchedLine.FindStringSubmatch(lines.Text()); m != nil {
				ids <- m[1]
			}
		}
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	what := ""
	select {
	case err := <-exited:
		what = fmt.Sprintf("%s ended by itself before the kill at %v (%v)", args[1], delay, err)
	case <-time.After(delay):
		_ = cmd.Process.Signal(syscall.SIGKILL)
		<-exited
		what = fmt.Sprintf("killed `strata %s` after %v", strings.Join(args[:2], " "), delay)
	}
	if id == "" {
		select {
		case id = <-ids:
		case <-time.After(100 * time.Millisecond):
		}
	}
	return id, what
}

// serverStep starts `strata start` (which resumes an interrupted backfill
// by itself), launches the backfill over HTTP if it has no id yet, and
// kills the server after delay.
func (d *Driver) serverStep(t testing.TB, dir string, tr Trial, id string, delay time.Duration) (string, string) {
	srv := strataproc.Start(t, d.Bin, dir, token)
	meddle := ""
	if id == "" {
		var st strataproc.Backfill
		srv.Call(t, http.MethodPost, "/backfills", tr.specJSON(), &st)
		id = st.ID
		if tr.Meddle != "" {
			// Newer work on one day while the backfill runs: a plain run,
			// about when the backfill may reach that day, published
			// before the kill or not at all.
			time.Sleep(delay / 2)
			status, body, err := srv.Request(http.MethodPost, "/pipelines/clv/runs?wait=true", `{"partition": "`+tr.Meddle+`"}`)
			meddle = fmt.Sprintf(", a plain run of %s answered %d (%v) %.120s", tr.Meddle, status, err, body)
			delay -= delay / 2
		}
	}
	time.Sleep(delay)
	srv.Kill()
	return id, fmt.Sprintf("killed strata start after %v%s", delay, meddle)
}

// finish runs the backfill to its end without faults: a resume (or a
// launch, if no kill let it be recorded).
func (d *Driver) finish(t testing.TB, dir string, tr Trial, id string) string {
	if tr.Mode == "cli" {
		args := append([]string{"backfill", dir, "clv"}, tr.specArgs()...)
		if id != "" {
			args = []string{"backfill", "resume", dir, id}
		}
		out, code := strataproc.Run(t, d.Bin, args...)
		if id == "" {
			if m := regexp.MustCompile(`(?m)^backfill (bf_\S+): pipeline`).FindStringSubmatch(out); m != nil {
				id = m[1]
			}
		}
		if code != 0 || id == "" {
			t.Logf("%s: the last `strata %s` exited %d:\n%s", tr.label(), strings.Join(args[:2], " "), code, out)
		}
		return id
	}
	srv := strataproc.Start(t, d.Bin, dir, token)
	if id == "" {
		var st strataproc.Backfill
		srv.Call(t, http.MethodPost, "/backfills", tr.specJSON(), &st)
		id = st.ID
	}
	srv.WaitFor(t, id, func(p strataproc.Progress) bool { return p.State != "running" && p.State != "paused" })
	srv.Stop(t)
	return id
}

// recordedBackfill is the backfill a fresh trial project holds, if any.
func (w *warehouse) recordedBackfill() string {
	var id string
	_ = w.db.QueryRow(`SELECT backfill_id FROM _strata.backfills LIMIT 1`).Scan(&id)
	return id
}

// settleAtomic checks that an atomic backfill held back by a conflict made
// nothing current, then keeps the newer work with `strata backfill
// keep-newer`.
func (d *Driver) settleAtomic(t testing.TB, dir string, tr Trial, id string) violations {
	var v violations
	w, err := openWarehouse(dir)
	if err != nil {
		v.addf("before keep-newer: %v", err)
		return v
	}
	v.zero(w, "versions of an atomic backfill current while its conflicts are unsettled",
		`SELECT count(*) FROM _strata.versions WHERE starts_with(run_id, ?) AND is_current`, id+":")
	w.close()
	if out, code := strataproc.Run(t, d.Bin, "backfill", "keep-newer", dir, id); code != 0 {
		v.addf("%s: keep-newer: exit %d\n%s", tr.label(), code, out)
	}
	return v
}
