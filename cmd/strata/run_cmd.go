package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/stratahq/strata/projects/audit"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/envs"
)

func init() {
	register("run", "run a pipeline for one partition and publish its products", runRun)
}

func runRun(args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	part := fs.String("partition", "", "partition key (default: the latest complete partition)")
	format := fs.String("format", "text", "output: text or json")
	eng := fs.String("engine", "", "run Go blocks with interp or compiled (default: compiled when a Go toolchain is found)")
	env := fs.String("env", "", "stage the outputs in this environment (strata env create) instead of publishing to prod")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("usage: strata run DIR PIPELINE [--partition KEY] [--engine interp|compiled]")
	}
	if _, err := engine.ParseEngine(*eng); err != nil {
		return err
	}
	return withWorkspace(pos[0], func(ctx context.Context, ws *workspace) error {
		pl, err := ws.eng.Pipeline(pos[1])
		if err != nil {
			return err
		}
		key := *part
		if key == "" {
			spec, err := engine.SpecOf(pl.Partitions)
			if err != nil {
				return err
			}
			key = spec.Latest(time.Now()).Key
		}
		origin, _ := engine.PersonOrigin(engine.OriginCLI)
		opt := engine.RunOptions{Engine: *eng, Origin: origin, Actor: cliActor()}
		owner, err := envOwner(ctx, ws, *env)
		if err != nil {
			return err
		}
		envs.RunInto(&opt, owner)
		res, err := ws.eng.Run(ctx, pl.ID, key, opt)
		if err != nil {
			return err
		}
		cliAudit(ws.proj.Dir, audit.Entry{Action: audit.ActionRunLaunch, Pipeline: pl.ID, Target: res.RunID, Detail: string(res.State)})
		if *format == "json" {
			if err := printJSON(res); err != nil {
				return err
			}
		} else {
			printRun(res)
		}
		if res.State != engine.StateSucceeded {
			return exitError{1}
		}
		return nil
	})
}

func printRun(res *engine.RunResult) {
	fmt.Printf("run %s: pipeline %s, partition %s, engine %s\n", res.RunID, res.Pipeline, res.Partition, res.Engine)
	if res.EngineNote != "" {
		fmt.Fprintln(os.Stderr, "note:", res.EngineNote)
	}
	for _, b := range res.Blocks {
		name := b.Block
		if b.Child != "" {
			name = "  " + b.Block + "[" + b.Child + "]"
		}
		line := fmt.Sprintf("  %-34s %-9s %-11s %7d rows  %8s", name, b.State, b.Partition, b.Rows, b.Duration.Round(time.Microsecond*100))
		if b.Error != "" {
			// As the compiler and the interpreter name it (file:line:col),
			// so that an editor or terminal can jump to it.
			line += "  " + errorPosition(b) + b.Error
		}
		fmt.Println(line)
		printBlockLog(b.Log)
	}
	for _, v := range res.Versions {
		verb := "published"
		switch {
		case v.Reused:
			// Rows equal to what the environment reads: nothing written.
			fmt.Printf("  unchanged %s %s: the environment's version %d has the same rows (%d); nothing staged\n", v.Product, v.Partition, v.Version, v.Rows)
			continue
		case !v.Current:
			verb = "staged" // in an environment, or kept aside by newer work
		}
		fmt.Printf("  %s %s %s version %d (%d rows)\n", verb, v.Product, v.Partition, v.Version, v.Rows)
	}
	fmt.Printf("%s in %s\n", res.State, res.Duration.Round(time.Millisecond))
	if res.Error != "" {
		fmt.Fprintln(os.Stderr, "error:", res.Error)
	}
}

// errorPosition is "blocks/clv/clv.go:27:15: " for a block error at a
// position, "" for one at none.
func errorPosition(b *engine.BlockOutcome) string {
	if b.ErrorLine <= 0 {
		return ""
	}
	file := b.ErrorFile
	if file == "" {
		file = b.Block
	}
	if b.ErrorColumn > 0 {
		return fmt.Sprintf("%s:%d:%d: ", file, b.ErrorLine, b.ErrorColumn)
	}
	return fmt.Sprintf("%s:%d: ", file, b.ErrorLine)
}

// maxLogLines is how much of a block's log the text output shows.
const maxLogLines = 10

// printBlockLog shows what a block printed under its line: a user who ran
// one partition with fmt.Println in a block saw only the summary, and had
// to know --format json (or the UI's run page) to find the output.
func printBlockLog(log string) {
	log = strings.TrimRight(log, "\n")
	if log == "" {
		return
	}
	lines := strings.Split(log, "\n")
	for _, l := range lines[:min(len(lines), maxLogLines)] {
		fmt.Println("      │ " + l)
	}
	if len(lines) > maxLogLines {
		fmt.Printf("      │ … %d more lines (--format json has them all)\n", len(lines)-maxLogLines)
	}
}
