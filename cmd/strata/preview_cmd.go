package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/blocks/tableio"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/envs"
)

func init() {
	register("preview", "show a block's product: a partition, the last N, a range or a past version", runPreview)
}

func runPreview(args []string) error {
	fs := flag.NewFlagSet("preview", flag.ContinueOnError)
	part := fs.String("partition", "", "one partition key")
	last := fs.Int("last", 0, "the latest N partitions")
	from := fs.String("from", "", "first partition key of a range (inclusive)")
	to := fs.String("to", "", "last partition key of a range (inclusive)")
	period := fs.String("period", "", "a calendar period: 2024, 2024-Q1, 2024-03, 2024-W10")
	version := fs.Int("version", 0, "a past version (with --partition)")
	limit := fs.Int("limit", 20, "rows to show (-1: all)")
	format := fs.String("format", "table", "table, json or csv")
	env := fs.String("env", "", "read the product as this environment shows it (its own versions, prod's elsewhere)")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 3 {
		return fmt.Errorf("usage: strata preview DIR PIPELINE BLOCK [--partition KEY | --last N | --from A --to B | --period P] [--version V]")
	}
	return withInspection(pos[0], func(ctx context.Context, ws *workspace) error {
		pl, err := ws.eng.Pipeline(pos[1])
		if err != nil {
			return err
		}
		b := pl.Block(pos[2])
		if b == nil {
			return fmt.Errorf("pipeline %s has no block %q", pl.ID, pos[2])
		}
		product := engine.ProductName(pl, b)
		sel, err := ws.eng.ResolveWindow(product, sdk.Window{Partition: *part, Last: *last, From: *from, To: *to, Period: *period})
		if err != nil {
			return err
		}
		sel.Version = *version
		t, total, err := envs.New(ws.wh, ws.eng).Read(ctx, *env, product, sel, *limit)
		if err != nil {
			return err
		}
		spec, _ := engine.SpecOf(b.Partitions)
		loc := spec.Zone
		if loc == nil {
			loc = time.UTC
		}
		switch *format {
		case "json":
			preview := tableio.ToJSON(t, *limit, loc)
			preview.RowCount = int(total)
			return printJSON(map[string]any{"product": product, "preview": preview})
		case "csv":
			return tableio.WriteCSV(os.Stdout, t, loc)
		}
		if *env != "" && *env != envs.Prod {
			fmt.Printf("[environment %s] ", *env)
		}
		fmt.Printf("%s (%s)\n", product, b.File)
		return tableio.WriteTextOf(os.Stdout, t, *limit, total, loc)
	})
}
