package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"github.com/stratahq/strata/projects/audit"
)

func init() {
	register("products", "list every data product: partitions, current versions, rows", runProducts)
	register("rollback", "make an older kept version of a partition current again", runRollback)
}

func runProducts(args []string) error {
	fs := flag.NewFlagSet("products", flag.ContinueOnError)
	format := fs.String("format", "table", "table or json")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("usage: strata products DIR")
	}
	return withInspection(pos[0], func(ctx context.Context, ws *workspace) error {
		ps, err := ws.wh.Products(ctx)
		if err != nil {
			return err
		}
		if *format == "json" {
			return printJSON(ps)
		}
		tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "PRODUCT\tPARTITIONS\tROWS (CURRENT)\tLATEST\tUPDATED")
		for _, p := range ps {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\n", p.Name, p.Partitions, p.Rows, p.LatestPartition, p.UpdatedAt.Local().Format(time.DateTime))
		}
		return tw.Flush()
	})
}

func runRollback(args []string) error {
	fs := flag.NewFlagSet("rollback", flag.ContinueOnError)
	part := fs.String("partition", "", "partition key")
	to := fs.Int("to-version", 0, "version to make current")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 3 || *part == "" || *to == 0 {
		return fmt.Errorf("usage: strata rollback DIR PIPELINE BLOCK --partition KEY --to-version V")
	}
	return withWorkspace(pos[0], func(ctx context.Context, ws *workspace) error {
		product, err := ws.eng.ProductOf(pos[1], pos[2])
		if err != nil {
			return err
		}
		// Through the engine, so event triggers hear of it as of a publish.
		if err := ws.eng.RollbackProduct(ctx, product, *part, *to); err != nil {
			return err
		}
		cliAudit(ws.proj.Dir, audit.Entry{Action: audit.ActionProductRollback, Pipeline: pos[1], Target: fmt.Sprintf("%s %s v%d", product, *part, *to)})
		fmt.Printf("%s %s: version %d is current\n", product, *part, *to)
		return nil
	})
}
