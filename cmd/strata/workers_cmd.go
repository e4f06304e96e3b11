package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/stratahq/strata/kernel/remote"
)

func init() {
	register("workers", "list the workers connected to a running coordinator: host, slots, live or stale, busy, version, last heartbeat", runWorkers)
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
	now := time.Now()
	if *format == "json" {
		type row struct {
			remote.Heartbeat
			State string `json:"state"` // live or stale, as of now
		}
		out := struct {
			Written time.Time `json:"written"`
			Workers []row     `json:"workers"`
		}{Written: f.Written, Workers: []row{}}
		for _, w := range f.Workers {
			out.Workers = append(out.Workers, row{w, workerState(w, now)})
		}
		return printJSON(out)
	}
	if age := now.Sub(f.Written); age > 10*time.Second {
		fmt.Fprintf(os.Stderr, "strata: the coordinator last wrote this list %s ago; it may have stopped\n", age.Round(time.Second))
	}
	printWorkers(os.Stdout, f.Workers, now)
	return nil
}

// printWorkers writes the table of `strata workers` as of now. A worker
// whose heartbeats lapsed is marked stale and its busy count is not shown:
// it is what the worker said before it went quiet, not what it does now.
func printWorkers(w io.Writer, workers []remote.Heartbeat, now time.Time) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKER\tSTATE\tHOST\tSLOTS\tBUSY\tVERSION\tRUNS\tLAST HEARTBEAT")
	for _, w := range workers {
		id := w.ID
		if w.Local {
			id += " (coordinator kernels)"
		}
		runs := "interpreted"
		if w.Compiled {
			runs = "compiled (" + w.Platform + ")"
		}
		state, busy := workerState(w, now), strconv.Itoa(w.Busy)
		if state == "stale" {
			busy = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s ago\n", id, state, w.Host, w.Slots, busy, w.Version, runs, now.Sub(w.At).Round(100*time.Millisecond))
	}
	_ = tw.Flush()
}

// workerState is "stale" for a worker whose heartbeats lapsed, else "live".
func workerState(w remote.Heartbeat, now time.Time) string {
	if remote.Stale(w, now) {
		return "stale"
	}
	return "live"
}
