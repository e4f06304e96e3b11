package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/stratahq/strata/kernel/remote"
)

func init() {
	register("workers", "list the workers connected to a running coordinator: host, slots, busy, version, last heartbeat", runWorkers)
}

func runWorkers(args []string) error {
	fs := flag.NewFlagSet("workers", flag.ContinueOnError)
	format := fs.String("format", "table", "table or json")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("usage: strata workers DIR")
	}
	f, err := remote.ReadWorkersFile(filepath.Join(pos[0], ".strata", "workers.json"))
	if err != nil {
		return err
	}
	if *format == "json" {
		return printJSON(f)
	}
	if age := time.Since(f.Written); age > 10*time.Second {
		fmt.Fprintf(os.Stderr, "strata: the coordinator last wrote this list %s ago; it may have stopped\n", age.Round(time.Second))
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKER\tHOST\tSLOTS\tBUSY\tVERSION\tRUNS\tLAST HEARTBEAT")
	for _, w := range f.Workers {
		id := w.ID
		if w.Local {
			id += " (coordinator kernels)"
		}
		runs := "interpreted"
		if w.Compiled {
			runs = "compiled (" + w.Platform + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%s ago\n", id, w.Host, w.Slots, w.Busy, w.Version, runs, time.Since(w.At).Round(100*time.Millisecond))
	}
	return tw.Flush()
}
