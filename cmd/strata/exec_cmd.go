package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/blocks/tableio"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/partitions"
)

func init() {
	register("exec", "run a Go block (its file or folder: the folder's package) for a partition, no project needed", runExec)
}

func runExec(args []string) error {
	fs := flag.NewFlagSet("exec", flag.ContinueOnError)
	part := fs.String("partition", "", "partition key: 2024-03-10, 2024-W10, 2024-03, 2024-Q1, 2024 or 2024-03-10T02 (default: yesterday in --tz)")
	tz := fs.String("tz", "UTC", "IANA time zone of the partition")
	format := fs.String("format", "table", "output format: table, json or csv")
	timeout := fs.Duration("timeout", 10*time.Second, "time limit of the run")
	limit := fs.Int("limit", 50, "rows to print with --format table (-1: all)")
	memLimit := fs.Int64("memory-limit-mb", 2048, "kernel memory limit in MiB")
	eng := fs.String("engine", "", "interp or compiled (default: the interpreter, compiled when the block needs it and a Go toolchain is found)")
	var inputs, vars, allow multiFlag
	fs.Var(&inputs, "input", "upstream table NAME=FILE.csv, in parameter order (repeatable)")
	fs.Var(&vars, "var", "variable NAME=VALUE (repeatable)")
	fs.Var(&allow, "allow", "opt in to a restricted import: os/exec, unsafe, syscall or plugin (repeatable)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: strata exec FILE.go|DIR [--engine interp|compiled] [flags]")
		fmt.Fprintln(fs.Output(), "DIR runs the folder's package (its .go files, _test.go excepted; the entry is DIR/DIR.go or the file declaring Load, Transform or Export); FILE.go runs alone, or with its folder's package when it is DIR/DIR.go")
		fs.PrintDefaults()
	}
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return exitError{2}
	}
	if _, err := engine.ParseEngine(*eng); err != nil {
		return fmt.Errorf("--engine: %w", err)
	}
	file, others, err := blockFiles(pos[0])
	if err != nil {
		return err
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var files []protocol.SourceFile
	for _, o := range others {
		b, err := os.ReadFile(o)
		if err != nil {
			return err
		}
		files = append(files, protocol.SourceFile{Name: filepath.Base(o), Source: string(b)})
	}
	loc, err := time.LoadLocation(*tz)
	if err != nil {
		return fmt.Errorf("--tz %q: %w (want an IANA zone such as America/New_York)", *tz, err)
	}
	p, interval, err := execPartition(*part, loc)
	if err != nil {
		return err
	}
	req := &protocol.ExecRequest{
		Filename:  filepath.Base(file),
		Source:    string(src),
		Files:     files,
		Partition: protocol.PartitionWire{Key: p.Key, Start: p.Start, End: p.End, Interval: string(interval), Zone: loc.String()},
		Vars:      map[string]string{},
		Timeout:   *timeout,
		Allow:     allow,
	}
	for _, v := range vars {
		k, val, ok := strings.Cut(v, "=")
		if !ok {
			return fmt.Errorf("--var %q: want NAME=VALUE", v)
		}
		req.Vars[k] = val
	}
	var tables []*sdk.Table
	for _, in := range inputs {
		name, path, ok := strings.Cut(in, "=")
		if !ok {
			return fmt.Errorf("--input %q: want NAME=FILE.csv", in)
		}
		t, err := readCSVFile(path)
		if err != nil {
			return fmt.Errorf("--input %s: %w", in, err)
		}
		req.Inputs = append(req.Inputs, name)
		tables = append(tables, t)
	}

	ctx, stop := signalContext()
	defer stop()
	h := &printHandler{live: *format == "table"}
	res, out, used, err := execEngine(ctx, *eng, filepath.Dir(file), moduleRoot(file), req, tables, *memLimit<<20, h)
	if err != nil {
		return err
	}

	switch *format {
	case "json":
		doc := map[string]any{"stdout": res.Stdout, "duration_ms": float64(res.Duration.Microseconds()) / 1000, "entry": res.Entry, "engine": used}
		if res.Error != nil {
			doc["error"] = res.Error
		}
		if out != nil {
			j := tableio.ToJSON(out, -1, loc)
			doc["columns"], doc["rows"], doc["row_count"] = j.Columns, j.Rows, j.RowCount
		}
		if err := printJSON(doc); err != nil {
			return err
		}
	case "csv":
		if out != nil {
			if err := tableio.WriteCSV(os.Stdout, out, loc); err != nil {
				return err
			}
		}
		if res.Error == nil {
			fmt.Fprintf(os.Stderr, "engine %s\n", used)
		}
	default:
		if out != nil {
			if err := tableio.WriteText(os.Stdout, out, *limit, loc); err != nil {
				return err
			}
		}
		if res.Error == nil {
			fmt.Fprintf(os.Stderr, "%s ran in %s (engine %s)\n", res.Entry, res.Duration.Round(time.Microsecond), used)
		}
	}
	if res.Error != nil {
		printRunError(file, res.Error)
		if *format != "json" {
			fmt.Fprintf(os.Stderr, "(engine %s)\n", used)
		}
		return exitError{1}
	}
	return nil
}

// execPartition parses a key of any interval, recognized by its shape.
func execPartition(key string, loc *time.Location) (partitions.Partition, partitions.Interval, error) {
	if key == "" {
		spec := partitions.Spec{Interval: partitions.Day, Zone: loc}
		return spec.Latest(time.Now()), partitions.Day, nil
	}
	for _, iv := range []partitions.Interval{partitions.Day, partitions.Hour, partitions.Week, partitions.Month, partitions.Quarter, partitions.Year} {
		spec := partitions.Spec{Interval: iv, Zone: loc, WeekStart: time.Monday}
		p, err := spec.Parse(key)
		if err == nil {
			return p, iv, nil
		}
	}
	return partitions.Partition{}, "", fmt.Errorf("--partition %q is not a partition key: want 2024-03-10 (day), 2024-03-10T02 (hour), 2024-W10 (week), 2024-03 (month), 2024-Q1 (quarter) or 2024 (year)", key)
}

func readCSVFile(path string) (*sdk.Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return tableio.ReadCSV(f)
}

func printRunError(file string, e *protocol.RunError) {
	// A position may be in another file of the block's package (named by
	// its base name, as exec sends them).
	in := func(name string) string {
		if name == "" || name == filepath.Base(file) {
			return file
		}
		return filepath.Join(filepath.Dir(file), filepath.Base(name))
	}
	if len(e.Diagnostics) > 1 {
		for _, d := range e.Diagnostics {
			fmt.Fprintf(os.Stderr, "%s: %s\n", position(in(d.File), d.Line, d.Column), d.Message)
		}
		return
	}
	if e.Line > 0 {
		fmt.Fprintf(os.Stderr, "%s: %s (%s)\n", position(in(e.File), e.Line, e.Column), e.Message, e.Kind)
		return
	}
	fmt.Fprintf(os.Stderr, "%s: %s (%s)\n", file, e.Message, e.Kind)
}

// printHandler shows a block's output as it streams.
type printHandler struct{ live bool }

func (h *printHandler) Stream(name, data string) {
	if name == "stderr" {
		os.Stderr.WriteString(data)
	} else if h.live {
		os.Stdout.WriteString(data)
	}
}

func (h *printHandler) Log(l protocol.LogLine) {
	fmt.Fprintf(os.Stderr, "%s %-5s %s\n", l.Time.Format("15:04:05.000"), l.Level, l.Msg)
}

func (h *printHandler) HostCall(context.Context, *protocol.HostCall) (*sdk.Table, error) {
	return nil, fmt.Errorf("%w (run the block with `strata run` inside a project to query products)", sdk.ErrNoWarehouse)
}

// position is file:line:column as Go tools print it, or file:line when the
// column is not known (a compiled block's panic: Go's traces give lines);
// "x.go:15:0" read as a column that does not exist.
func position(file string, line, col int) string {
	if col <= 0 {
		return fmt.Sprintf("%s:%d", file, line)
	}
	return fmt.Sprintf("%s:%d:%d", file, line, col)
}
