package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/stratahq/strata/projects/engine"
)

// backfillRetry: strata backfill retry DIR ID [--use-current-code] [--dry-run].
func backfillRetry(args []string) error {
	fs := flag.NewFlagSet("backfill retry", flag.ContinueOnError)
	current := fs.Bool("use-current-code", false, "run the files as they are now instead of the backfill's pipeline version")
	dry := fs.Bool("dry-run", false, "print what the retry would run; run nothing")
	format := fs.String("format", "text", "with --dry-run: text or json")
	flags, pos := interleaved(args, map[string]bool{"use-current-code": true, "dry-run": true})
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("usage: strata backfill retry DIR ID [--use-current-code] [--dry-run]")
	}
	id := pos[1]
	return withWorkspace(pos[0], func(ctx context.Context, ws *workspace) error {
		if *dry {
			rp, err := ws.eng.PlanRetry(ctx, id, *current)
			if err != nil {
				return err
			}
			if *format == "json" {
				return printJSON(rp)
			}
			fmt.Println(rp)
			return nil
		}
		if !*current {
			// Said before it runs: a retry after a fix would rerun the
			// code that failed.
			if before, err := ws.eng.Backfill(ctx, id); err == nil && before.RetryHint != "" {
				fmt.Fprintf(os.Stderr, "NOTE: %s: strata backfill retry %s %s --use-current-code\n", before.RetryHint, ws.proj.Dir, id)
			}
		}
		st, err := ws.eng.Retry(ctx, id, *current)
		if err != nil {
			return err
		}
		fmt.Printf("backfill %s: retrying with pipeline version %s\n", id, shortVersion(st.Snapshot))
		return followBackfill(ctx, ws, id)
	})
}

func shortVersion(h string) string {
	if len(h) > 7 {
		return h[:7]
	}
	return h
}

// backfillResolve: strata backfill promote-anyway|keep-newer DIR ID
// [--partition KEY,...] settles the conflicts of a backfill that needs
// attention: its versions made current over the newer ones, or discarded.
func backfillResolve(action string, args []string) error {
	fs := flag.NewFlagSet("backfill "+action, flag.ContinueOnError)
	only := fs.String("partition", "", "only these partitions (comma-separated keys); default: every conflict")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("usage: strata backfill %s DIR ID [--partition KEY,...]", action)
	}
	var parts []string
	if *only != "" {
		parts = strings.Split(*only, ",")
	}
	return withWorkspace(pos[0], func(ctx context.Context, ws *workspace) error {
		cs, err := ws.eng.Conflicts(ctx, pos[1])
		if err != nil {
			return err
		}
		n, err := ws.eng.Resolve(ctx, pos[1], action == "keep-newer", parts)
		if err != nil {
			return err
		}
		for _, c := range cs {
			if len(parts) == 0 || slices.Contains(parts, c.Partition) {
				fmt.Printf("  %s %s: backfill v%d, newer v%d\n", c.Product, c.Partition, c.Version, c.Current)
			}
		}
		st, err := ws.eng.Backfill(ctx, pos[1])
		if err != nil {
			return err
		}
		what := "promoted the backfill's versions over the newer ones"
		if action == "keep-newer" {
			what = "kept the newer versions and discarded the backfill's"
		}
		fmt.Printf("backfill %s: %d partitions resolved (%s); now %s\n", pos[1], n, what, st.State)
		if action == "keep-newer" && strings.Contains(st.Message, "--reprocess stale") {
			// The kept work can be stale next to what the backfill made
			// current; the engine's message says which and what to run.
			fmt.Println("  " + st.Message)
		}
		return nil
	})
}

func printConflicts(cs []engine.BackfillConflict) {
	for _, c := range cs {
		fmt.Printf("  conflict %s %s: the backfill's v%d was planned against %s; v%d is current (newer work)\n", c.Product, c.Partition, c.Version, planned(c.BasedOn), c.Current)
	}
}

func planned(v int) string {
	switch {
	case v == 0:
		return "no version"
	case v < 0:
		return "an earlier version"
	}
	return fmt.Sprintf("v%d", v)
}
