package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/stratahq/strata/projects/triggers/launcher"
	"github.com/stratahq/strata/projects/warehouse"
)

func init() {
	register("triggers", "list triggers with their next ticks (strata triggers DIR; pause|resume DIR PIPELINE ID; preview DIR PIPELINE ID --from A --to B)", runTriggers)
}

// triggerClock is the clock `strata start` runs triggers on. The hidden
// STRATA_TRIGGER_CLOCK_SPEED (a test hook) makes it run faster than real
// time, so an end-to-end test sees a per-minute schedule fire in seconds.
func triggerClock() *launcher.RealClock {
	speed, _ := strconv.ParseFloat(os.Getenv("STRATA_TRIGGER_CLOCK_SPEED"), 64)
	return &launcher.RealClock{Speed: speed}
}

func runTriggers(args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "pause", "resume":
			return triggersPause(args[0] == "pause", args[1:])
		case "preview":
			return triggersPreview(args[1:])
		}
	}
	fs := flag.NewFlagSet("triggers", flag.ContinueOnError)
	next := fs.Int("next", 3, "next ticks to show per trigger")
	format := fs.String("format", "text", "text or json")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("usage: strata triggers DIR [--next N] [--format text|json]")
	}
	dir := pos[0]
	now := time.Now()
	var list []launcher.Status
	note := ""
	ctx, stop := signalContext()
	defer stop()
	ws, err := openWorkspace(ctx, dir)
	var locked *warehouse.LockedError
	switch {
	case errors.As(err, &locked):
		// The server runs the triggers and holds the warehouse: show the
		// schedule; the history is in its UI and API.
		proj, err := loadProject(dir)
		if err != nil {
			return err
		}
		if list, err = launcher.List(ctx, proj, nil, "", now, *next, 0); err != nil {
			return err
		}
		note = fmt.Sprintf("(pid %d holds the warehouse and runs these triggers: last firings are in its UI and GET /api/v1/triggers)", locked.PID)
	case err != nil:
		return err
	default:
		defer ws.Close()
		if list, err = launcher.List(ctx, ws.proj, ws.wh.DB(), "", now, *next, 0); err != nil {
			return err
		}
	}
	if *format == "json" {
		return printJSON(map[string]any{"triggers": list, "note": note})
	}
	if len(list) == 0 {
		fmt.Println("no triggers: add a triggers: list to a pipeline file")
		return nil
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	for _, s := range list {
		what := s.Kind
		switch s.Kind {
		case "schedule":
			what = fmt.Sprintf("schedule %q %s", s.Cron, s.Timezone)
		case "event":
			what = "when " + s.Product + " has a new version"
		}
		state := "active"
		if s.Paused {
			state = "paused since " + s.PausedSince.Format(time.RFC3339)
		}
		if s.Disabled != "" {
			state = "disabled: " + s.Disabled
		}
		fmt.Fprintf(w, "%s/%s\t%s\trun: %s\t%s\n", s.Pipeline, s.ID, what, s.Run, state)
		for _, t := range s.Next {
			part := t.From
			if t.To != t.From {
				part += ".." + t.To
			}
			if t.Error != "" {
				part = t.Error
			}
			fmt.Fprintf(w, "  next\t%s\t%s\t%s\n", t.Local, t.At.Format("2006-01-02 15:04Z"), part)
		}
		if s.Last != nil {
			fmt.Fprintf(w, "  last\t%s\t%s %s\t%s %s\n", s.Last.Tick.Format(time.RFC3339), s.Last.Action, s.Last.WorkID, s.Last.State, s.Last.Detail)
		} else if note == "" {
			fmt.Fprintf(w, "  last\tnever fired\n")
		}
		if p := s.CatchUpPlan; p != nil {
			fmt.Fprintf(w, "  catch-up\t%d missed ticks will run, %d skipped (catch_up.max %d)\n", len(p.Run), p.Skipped, s.CatchUp)
		}
	}
	w.Flush()
	if note != "" {
		fmt.Println(note)
	}
	return nil
}

// triggersPause writes the pause state file, which a running server reads
// at every step: it works whether or not `strata start` holds the warehouse.
func triggersPause(paused bool, args []string) error {
	verb := map[bool]string{true: "pause", false: "resume"}[paused]
	if len(args) != 3 {
		return fmt.Errorf("usage: strata triggers %s DIR PIPELINE ID", verb)
	}
	proj, err := loadProject(args[0])
	if err != nil {
		return err
	}
	pl := proj.Pipelines[args[1]]
	if pl == nil {
		return fmt.Errorf("pipeline %q not found (pipelines: %v)", args[1], proj.PipelineIDs())
	}
	if pl.Trigger(args[2]) == nil {
		var ids []string
		for _, t := range pl.Triggers {
			ids = append(ids, t.ID)
		}
		return fmt.Errorf("pipeline %s has no trigger %q (triggers: %v)", pl.ID, args[2], ids)
	}
	changed, err := launcher.SetPaused(filepath.Clean(proj.Dir), pl.ID, args[2], paused, time.Now())
	if err != nil {
		return err
	}
	if !changed {
		fmt.Printf("trigger %s/%s was already %sd\n", pl.ID, args[2], verb)
		return nil
	}
	fmt.Printf("trigger %s/%s %sd\n", pl.ID, args[2], verb)
	return nil
}

func triggersPreview(args []string) error {
	fs := flag.NewFlagSet("triggers preview", flag.ContinueOnError)
	from := fs.String("from", "", "start: a date or time in the trigger's zone, or RFC 3339")
	to := fs.String("to", "", "end (a date is inclusive: its whole day)")
	limit := fs.Int("limit", 1000, "at most this many ticks")
	format := fs.String("format", "text", "text or json")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 3 || *from == "" || *to == "" {
		return fmt.Errorf("usage: strata triggers preview DIR PIPELINE ID --from A --to B")
	}
	proj, err := loadProject(pos[0])
	if err != nil {
		return err
	}
	pl := proj.Pipelines[pos[1]]
	if pl == nil {
		return fmt.Errorf("pipeline %q not found (pipelines: %v)", pos[1], proj.PipelineIDs())
	}
	t := pl.Trigger(pos[2])
	if t == nil {
		return fmt.Errorf("pipeline %s has no trigger %q", pl.ID, pos[2])
	}
	if t.Schedule == nil {
		return fmt.Errorf("trigger %s is a %s trigger: only schedules have ticks to preview", t.ID, t.Kind)
	}
	a, b, err := launcher.ParseSpan(*from, *to, t.Schedule.Zone)
	if err != nil {
		return err
	}
	if *limit < 1 {
		return fmt.Errorf("--limit %d: want at least 1", *limit)
	}
	page, err := launcher.Preview(pl, t, a, b, *limit)
	if err != nil {
		return err
	}
	ticks := page.Ticks
	if *format == "json" {
		out := map[string]any{"pipeline": pl.ID, "trigger": t.ID, "ticks": ticks, "truncated": page.Truncated}
		if page.NextFrom != nil {
			out["next_from"] = page.NextFrom
		}
		return printJSON(out)
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "TICK (%s)\tUTC\tRUNS\n", t.Schedule.Zone)
	for _, tk := range ticks {
		runs := tk.From
		if tk.To != tk.From {
			runs += ".." + tk.To
		}
		if tk.Error != "" {
			runs = "nothing: " + tk.Error
		}
		fmt.Fprintf(w, "%s\t%s\t%s %s\n", tk.Local, tk.At.Format("2006-01-02 15:04Z"), pl.ID, runs)
	}
	w.Flush()
	if page.Truncated {
		fmt.Printf("%d ticks shown; the span has more (--limit %d): the next page starts --from %s\n",
			len(ticks), *limit, page.NextFrom.Format(time.RFC3339))
		return nil
	}
	fmt.Printf("%d ticks\n", len(ticks))
	return nil
}
