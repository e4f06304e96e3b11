package main

import (
	"context"
	"flag"
	"fmt"
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
