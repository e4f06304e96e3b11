package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/replay"
)

func init() {
	register("test", "run replay tests: the working-tree code over stored partitions, diffed against what they hold", runTest)
}

const testUsage = `usage: strata test [DIR] [--run REGEX] [-v] [--format text|json|junit]   the _test.go files of the block folders (go test ./blocks/...)
       strata test [DIR] --replay PIPELINE [--last N | --from KEY --to KEY] [--expect-unchanged PRODUCT]... [--format text|json|junit] [--engine interp|compiled] [--rows N] [--concurrency N]
       strata test [DIR] --read PRODUCT --partition KEY [--version V]   one stored version as sdktest.FromVersion reads it`

func runTest(args []string) error {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	pipeline := fs.String("replay", "", "replay this pipeline's stored partitions with the code on disk now")
	last := fs.Int("last", 0, "replay the newest N stored partitions")
	from := fs.String("from", "", "first partition key to replay (included)")
	to := fs.String("to", "", "last partition key to replay (included)")
	var expect multiFlag
	fs.Var(&expect, "expect-unchanged", "a product (or block) that must not change: exit 1 on any difference (repeatable)")
	format := fs.String("format", "text", "output: text, json or junit (JUnit XML, for CI)")
	eng := fs.String("engine", "", "run Go blocks with interp or compiled (default: compiled when a Go toolchain is found)")
	rows := fs.Int("rows", 5, "changed rows shown per block and partition")
	conc := fs.Int("concurrency", 0, "partitions replayed at once (default: the pipeline's concurrency)")
	runRE := fs.String("run", "", "block tests: run only the tests matching this regular expression (go test -run)")
	verbose := fs.Bool("v", false, "block tests: print every test as it runs (go test -v)")
	read := fs.String("read", "", "print one stored version of this product (with --partition, --version) in sdktest's wire")
	partition := fs.String("partition", "", "with --read: the partition key")
	version := fs.Int("version", 0, "with --read: the version (default: the current one)")
	flags, pos := interleaved(args, map[string]bool{"v": true})
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) > 1 {
		return fmt.Errorf("%s\n(one project folder at most, got %d arguments)", testUsage, len(pos))
	}
	dir := "."
	if len(pos) == 1 {
		dir = pos[0]
	}
	switch *format {
	case "text", "json", "junit":
	default:
		return fmt.Errorf("--format %q: want text, json or junit", *format)
	}
	if *read != "" {
		return readVersion(dir, *read, *partition, *version)
	}
	if *pipeline == "" {
		return runBlockTests(dir, *runRE, *verbose, *format)
	}
	if _, err := engine.ParseEngine(*eng); err != nil {
		return err
	}
	if *rows < 0 {
		return fmt.Errorf("--rows %d: want 0 or more", *rows)
	}
	opt := replay.Options{Pipeline: *pipeline, Last: *last, From: *from, To: *to, ExpectUnchanged: expect, Engine: *eng, Rows: *rows, Concurrency: *conc}
	if *rows == 0 {
		opt.Rows = -1 // counts only
	}
	return withWorkspace(dir, func(ctx context.Context, ws *workspace) error {
		rep, err := replay.Run(ctx, ws.eng, opt, nil)
		if err != nil {
			return err
		}
		switch *format {
		case "json":
			err = printJSON(rep)
		case "junit":
			err = rep.WriteJUnit(os.Stdout)
		default:
			rep.WriteText(os.Stdout)
		}
		if err != nil {
			return err
		}
		if !rep.Passed {
			return exitError{1}
		}
		return nil
	})
}
