package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/stratahq/strata/projects/audit"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/warehouse"
)

func init() {
	register("backfill", "plan, run and manage backfills (strata backfill DIR PIPELINE --from A --to B; list|status|retry|cancel|pause|resume|diff|promote|discard|rollback|promote-anyway|keep-newer DIR ID)", runBackfill)
}

func runBackfill(args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "list":
			return backfillList(args[1:])
		case "status":
			return backfillStatus(args[1:])
		case "retry":
			return backfillRetry(args[1:])
		case "promote-anyway", "keep-newer":
			return backfillResolve(args[0], args[1:])
		case "resume", "cancel", "pause":
			return backfillControl(args[0], args[1:])
		case "diff":
			return backfillDiff(args[1:])
		case "promote":
			return backfillPromote(args[1:])
		case "discard":
			return backfillDiscard(args[1:])
		case "rollback":
			return backfillRollback(args[1:])
		}
	}
	fs := flag.NewFlagSet("backfill", flag.ContinueOnError)
	var spec engine.BackfillSpec
	fs.StringVar(&spec.From, "from", "", "first partition key (inclusive)")
	fs.StringVar(&spec.To, "to", "", "last partition key (inclusive)")
	fs.StringVar(&spec.Interval, "interval", "", "read --from/--to as keys of this interval (default: the pipeline's)")
	fs.StringVar(&spec.Zone, "tz", "", "read --from/--to in this zone (default: the pipeline's)")
	fs.StringVar(&spec.Reprocess, "reprocess", "missing", "missing, failed, stale or all")
	fs.IntVar(&spec.Concurrency, "concurrency", 0, "partitions at once (default: the pipeline's)")
	rate := fs.String("rate", "", "partitions started per minute: 600/m, 10/s, 1000/h (the pipeline's own; a rollup starts when its partitions are done)")
	fs.StringVar(&spec.Publish, "publish", "partition", "partition, atomic, or review (stage everything; promote after `strata backfill diff`)")
	fs.StringVar(&spec.Engine, "engine", "", "run Go blocks with interp or compiled (default: compiled when a Go toolchain is found)")
	env := fs.String("env", "", "stage every version in this environment (strata env create) instead of prod; nothing becomes current")
	blocks := fs.String("blocks", "", "comma-separated block ids: recompute only these (the others are read as they are; a block left out downstream of them becomes stale)")
	var where whereFlag
	fs.Var(&where, "where", "cells of a pipeline with dimensions: region=eu,us (repeatable, one dimension each; @new: keys added since the key set's previous version)")
	dry := fs.Bool("dry-run", false, "print the plan; run nothing")
	format := fs.String("format", "text", "text or json")
	all := fs.Bool("all", false, "with --dry-run: list every partition (default: the first 50)")
	flags, pos := interleaved(args, map[string]bool{"dry-run": true, "all": true})
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("usage: strata backfill DIR PIPELINE --from KEY --to KEY [--dry-run] [flags]")
	}
	var err error
	if spec.RatePerMin, err = engine.ParseRate(*rate); err != nil {
		return err
	}
	if _, err := engine.ParseEngine(spec.Engine); err != nil {
		return err
	}
	if *blocks != "" {
		spec.Blocks = strings.Split(*blocks, ",")
	}
	spec.Pipeline = pos[1]
	spec.Where = where.m
	return withWorkspace(pos[0], func(ctx context.Context, ws *workspace) error {
		var err error
		if spec.Into, err = envOwner(ctx, ws, *env); err != nil {
			return err
		}
		if spec.Into != "" && !flagSet(fs, "publish") {
			spec.Publish = "" // an environment stages: review, unless told otherwise (refused)
		}
		if *dry {
			limit := 50
			if *all || *format == "json" {
				limit = -1
			}
			plan, err := ws.eng.Plan(ctx, spec, 0, limit)
			if err != nil {
				return err
			}
			if *format == "json" {
				return printJSON(plan)
			}
			printPlan(plan, limit)
			return nil
		}
		spec.Actor = cliActor()
		st, err := ws.eng.Launch(context.Background(), spec)
		if err != nil {
			return err
		}
		cliAudit(ws.proj.Dir, audit.Entry{Action: audit.ActionBackfillLaunch, Pipeline: st.Pipeline, Target: st.ID})
		fmt.Printf("backfill %s: pipeline %s, %s..%s%s (%d partitions), reprocess %s, publish %s\n",
			st.ID, st.Pipeline, spec.From, spec.To, whereText(st.Spec.Where), st.Total, st.Spec.Reprocess, st.Spec.Publish)
		if len(st.Spec.Blocks) > 0 {
			fmt.Printf("blocks %s only (%s)\n", strings.Join(st.Spec.Blocks, ", "), engine.SubsetNote)
		}
		if *env != "" && spec.Into != "" {
			fmt.Printf("into environment %s: prod's data stays as it is until `strata env promote %s %s`\n", *env, ws.proj.Dir, *env)
		}
		fmt.Printf("pipeline version %s (edits to the files from now on do not reach this backfill)\n", shortVersion(st.Snapshot))
		return followBackfill(ctx, ws, st.ID)
	})
}

// followBackfill shows progress until the backfill ends; Ctrl+C cancels it.
func followBackfill(ctx context.Context, ws *workspace, id string) error {
	sub := ws.eng.Hub().Subscribe(64, func(n engine.Notice) bool {
		return n.Kind == "progress" && n.Progress != nil && n.Progress.BackfillID == id
	})
	defer sub.Close()
	done := make(chan *engine.BackfillStatus, 1)
	go func() {
		st, _ := ws.eng.Wait(context.Background(), id)
		done <- st
	}()
	tty := isTerminal(os.Stdout)
	lastLine := time.Time{}
	for {
		select {
		case n := <-sub.C:
			p := n.Progress
			if p.Total == 0 {
				continue
			}
			if tty {
				fmt.Printf("\r%s", progressBar(p))
			} else if time.Since(lastLine) > 5*time.Second {
				fmt.Println(progressLine(p))
				lastLine = time.Now()
			}
		case <-ctx.Done():
			fmt.Fprintln(os.Stderr, "\ncancelling…")
			_ = ws.eng.Cancel(context.Background(), id)
		case st := <-done:
			if tty {
				fmt.Println()
			}
			if st == nil {
				return errors.New("backfill ended without a status")
			}
			fmt.Printf("backfill %s %s: %d succeeded, %d skipped, %d failed, %d cancelled, %d conflicts in %s (engine %s)\n", st.ID, st.State,
				st.Progress.Succeeded, st.Progress.Skipped, st.Progress.Failed, st.Progress.Cancelled, st.Progress.Conflicts, st.Progress.Elapsed.Round(time.Millisecond), orUnknown(st.Progress.Engine))
			if st.Message != "" {
				fmt.Println(st.Message)
			}
			if st.State == engine.StateReview {
				rv, err := ws.eng.BackfillReview(ctx, id)
				if err != nil {
					return err
				}
				printReview(rv)
				fmt.Printf("review: strata backfill diff %[1]s %[2]s [--product P --partition KEY]; then strata backfill promote|discard %[1]s %[2]s\n", ws.proj.Dir, id)
				return nil
			}
			if st.State == engine.StateNeedsAttention {
				printConflicts(st.Conflicts)
				return exitError{1}
			}
			if st.State != engine.StateSucceeded {
				if st.RetryHint != "" {
					fmt.Fprintf(os.Stderr, "re-run what did not succeed: %s: strata backfill retry %s %s --use-current-code\n", st.RetryHint, ws.proj.Dir, st.ID)
					return exitError{1}
				}
				fmt.Fprintf(os.Stderr, "re-run what did not succeed: strata backfill retry %s %s\n", ws.proj.Dir, st.ID)
				return exitError{1}
			}
			return nil
		}
	}
}

func progressLine(p *engine.Progress) string {
	s := fmt.Sprintf("%d/%d done, %d failed, %d running, %.0f/min", p.Done, p.Total, p.Failed, p.Running, p.Rate)
	if p.Engine != "" {
		s += ", " + p.Engine
	}
	if p.ETA > 0 {
		s += ", ETA " + p.ETA.Round(time.Second).String()
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func progressBar(p *engine.Progress) string {
	const width = 30
	filled := 0
	if p.Total > 0 {
		filled = (p.Done + p.Failed + p.Cancelled) * width / p.Total
	}
	return "[" + strings.Repeat("#", filled) + strings.Repeat(".", width-filled) + "] " + progressLine(p) + "   "
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func printPlan(p *engine.Plan, limit int) {
	fmt.Printf("plan: pipeline %s, %s..%s%s: %d partitions, %d to run, %d to skip (reprocess %s, publish %s)\n",
		p.Spec.Pipeline, p.From, p.To, whereText(p.Spec.Where), p.Total, p.ToRun, p.ToSkip, p.Spec.Reprocess, p.Spec.Publish)
	if len(p.Spec.Blocks) > 0 {
		fmt.Printf("blocks %s only (%s)\n", strings.Join(p.Spec.Blocks, ", "), engine.SubsetNote)
	}
	fmt.Printf("pipeline version %s (the files as they are now; a launch pins it)\n", shortVersion(p.Snapshot))
	fmt.Printf("today: %d missing, %d failed, %d stale, %d current", p.ByState["missing"], p.ByState["failed"], p.ByState["stale"], p.ByState["current"])
	if r := p.RollupsByState; len(p.Rollups) > 0 {
		fmt.Printf("; rollups: %d missing, %d failed, %d stale, %d current", r["missing"], r["failed"], r["stale"], r["current"])
	}
	fmt.Println()
	if len(p.CompileErrors) > 0 {
		fmt.Printf("CANNOT LAUNCH: pipeline %s does not compile (a launch is refused; no partition could run):\n  %s\n", p.Spec.Pipeline, strings.Join(p.CompileErrors, "\n  "))
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PRODUCT\tRUN\tSKIP")
	for _, prod := range sortedProducts(p.ByProduct) {
		c := p.ByProduct[prod]
		fmt.Fprintf(tw, "%s\t%d\t%d\n", prod, c[0], c[1])
	}
	tw.Flush()
	fmt.Println()
	tw = tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PARTITION\tSTATE\tACTION\tREASON")
	for _, pp := range p.Partitions {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", pp.Key, pp.State, pp.Action, pp.Reason)
	}
	if limit >= 0 && p.Total > limit {
		fmt.Fprintf(tw, "… %d more (--all lists them)\t\t\t\n", p.Total-limit)
	}
	for _, pp := range p.Rollups {
		fmt.Fprintf(tw, "%s (%s)\t%s\t%s\t%s\n", pp.Key, pp.Interval, pp.State, pp.Action, pp.Reason)
	}
	tw.Flush()
}

func sortedProducts(m map[string][2]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func backfillList(args []string) error {
	fs := flag.NewFlagSet("backfill list", flag.ContinueOnError)
	format := fs.String("format", "text", "text or json")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("usage: strata backfill list DIR")
	}
	var bs []*engine.BackfillStatus
	err := withInspection(pos[0], func(ctx context.Context, ws *workspace) error {
		var err error
		bs, err = ws.eng.Backfills(ctx)
		return err
	})
	var locked *warehouse.LockedError
	if errors.As(err, &locked) {
		// Held by another process: the backfills it runs answer for
		// themselves (control_status.go); the others are in its file.
		ctx, stop := signalContext()
		defer stop()
		for _, id := range engine.RunningBackfills(pos[0], locked.PID) {
			live, err := engine.RequestStatus(ctx, pos[0], id, locked.PID, controlWait, false, "")
			if err != nil {
				return err
			}
			bs = append(bs, live.Backfill)
		}
		if *format != "json" {
			fmt.Printf("pid %d holds the project; listing the %d backfill(s) running there (the others can be listed once it stops, or through its API)\n", locked.PID, len(bs))
		}
	} else if err != nil {
		return err
	}
	if *format == "json" {
		return printJSON(bs)
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tPIPELINE\tRANGE\tSTATE\tSUCCEEDED\tSKIPPED\tFAILED\tCREATED")
	for _, b := range bs {
		state := string(b.State)
		if b.Interrupted {
			state += " (interrupted)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s..%s\t%s\t%d\t%d\t%d\t%s\n", b.ID, b.Pipeline, b.Spec.From, b.Spec.To, state,
			b.Progress.Succeeded, b.Progress.Skipped, b.Progress.Failed, b.CreatedAt.Local().Format(time.DateTime))
	}
	return tw.Flush()
}

func backfillStatus(args []string) error {
	fs := flag.NewFlagSet("backfill status", flag.ContinueOnError)
	format := fs.String("format", "text", "text or json")
	parts := fs.Bool("partitions", false, "include every partition's state")
	state := fs.String("state", "", "with --partitions: only this state")
	flags, pos := interleaved(args, map[string]bool{"partitions": true})
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("usage: strata backfill status DIR ID [--format json] [--partitions]")
	}
	var st *engine.BackfillStatus
	var list []engine.PartitionStatus
	err := withInspection(pos[0], func(ctx context.Context, ws *workspace) error {
		var err error
		if st, err = ws.eng.Backfill(ctx, pos[1]); err != nil {
			return err
		}
		if *parts {
			list, _, err = ws.eng.BackfillPartitions(ctx, pos[1], *state, 0, -1)
		}
		return err
	})
	var locked *warehouse.LockedError
	if errors.As(err, &locked) {
		// A running `strata backfill` (or `strata start`) holds the
		// project: the run itself answers (control_status.go).
		ctx, stop := signalContext()
		defer stop()
		live, lerr := engine.RequestStatus(ctx, pos[0], pos[1], locked.PID, controlWait, *parts, *state)
		if lerr != nil {
			return lerr
		}
		st, list, err = live.Backfill, live.Partitions, nil
	}
	if err != nil {
		return err
	}
	doc := map[string]any{"backfill": st, "counts": map[string]int{
		"succeeded": st.Progress.Succeeded, "skipped": st.Progress.Skipped, "failed": st.Progress.Failed,
		"cancelled": st.Progress.Cancelled, "running": st.Progress.Running, "conflict": st.Progress.Conflicts,
		"queued": st.Total - st.Progress.Succeeded - st.Progress.Skipped - st.Progress.Failed - st.Progress.Cancelled - st.Progress.Running - st.Progress.Conflicts}}
	if *parts {
		doc["partitions"] = list
	}
	if *format == "json" {
		return printJSON(doc)
	}
	if locked != nil {
		fmt.Printf("(read from pid %d, which is running it)\n", locked.PID)
	}
	fmt.Printf("backfill %s (%s %s..%s): %s %s\n", st.ID, st.Pipeline, st.Spec.From, st.Spec.To, st.State, st.Message)
	if by := launchedBy(st.Spec); by != "" {
		fmt.Println(by)
	}
	fmt.Printf("pipeline version %s%s\n", shortVersion(st.Snapshot), map[bool]string{true: "; the files have changed since", false: ""}[st.FilesChanged])
	if ran := st.RanString(); ran != "" {
		fmt.Println(ran)
	}
	fmt.Println(progressLine(&st.Progress))
	if st.Problem != "" {
		fmt.Printf("problem: %s\n", st.Problem)
	}
	printConflicts(st.Conflicts)
	for _, p := range list {
		if st.RanString() != "" && p.Snapshot != "" {
			// Which version computed it matters only when several did.
			fmt.Printf("  %-12s %-9s %-7s %s\n", p.Key, p.State, shortVersion(p.Snapshot), p.Error)
			continue
		}
		fmt.Printf("  %-12s %-9s %s\n", p.Key, p.State, p.Error)
	}
	return nil
}

// controlWait is how long a cancel, pause or resume handed to another
// process waits for that process to acknowledge it.
const controlWait = 10 * time.Second

// backfillControl resumes, cancels or pauses (retry is backfillRetry). When another process
// (a running `strata backfill` or `strata start`) holds the project, a cancel,
// pause or resume is handed to the run instance of the backfill in that
// process, which acknowledges it; if that process is not running the
// backfill, nothing is handed over and the command fails saying so.
func backfillControl(action string, args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: strata backfill %s DIR ID", action)
	}
	dir, id := args[0], args[1]
	ctx, stop := signalContext()
	defer stop()
	ws, err := openWorkspace(ctx, dir)
	var locked *warehouse.LockedError
	if errors.As(err, &locked) {
		msg, err := engine.RequestControl(ctx, dir, id, action, locked.PID, controlWait)
		if err != nil {
			return err
		}
		fmt.Println(msg)
		return nil
	}
	if err != nil {
		return err
	}
	defer ws.Close()
	switch action {
	case "cancel":
		if err := ws.eng.Cancel(ctx, id); err != nil {
			return err
		}
		fmt.Printf("backfill %s cancelled\n", id)
		return nil
	case "pause":
		return &engine.NotRunningError{Backfill: id, Action: "pause"}
	default:
		if _, err := ws.eng.Resume(ctx, id); err != nil {
			return err
		}
	}
	return followBackfill(ctx, ws, id)
}

// launchedBy says who or what launched a backfill, for status lines:
// "launched by ana", "launched by trigger nightly @ ...".
func launchedBy(spec engine.BackfillSpec) string {
	switch {
	case spec.Origin != nil:
		o := *spec.Origin
		o.Actor = spec.Actor
		return "launched by " + o.String()
	case spec.Actor != "":
		return "launched by " + spec.Actor
	}
	return ""
}
