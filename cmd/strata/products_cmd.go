package main

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/stratahq/strata/projects/audit"
	"github.com/stratahq/strata/projects/warehouse"
)

func init() {
	register("products", "list every data product: partitions, current versions, rows", runProducts)
	register("rollback", "make an older kept version of a partition current again", runRollback)
}

func runProducts(args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "transfer":
			return runProductTransfer(args[1:])
		case "owners":
			return runProductOwners(args[1:])
		case "versions":
			return runProductVersions(args[1:])
		}
	}
	fs := flag.NewFlagSet("products", flag.ContinueOnError)
	format := fs.String("format", "table", "table or json")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("usage: strata products DIR (or: strata products versions DIR PRODUCT; strata products owners DIR; strata products transfer DIR PRODUCT --to PIPELINE)")
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
	if (len(pos) != 2 && len(pos) != 3) || *part == "" || *to == 0 {
		return fmt.Errorf("usage: strata rollback DIR PRODUCT --partition KEY --to-version V (or DIR PIPELINE BLOCK, naming the block that writes it)")
	}
	return withWorkspace(pos[0], func(ctx context.Context, ws *workspace) error {
		// A product by name, as `strata products` lists it and the API
		// takes it; or the pipeline and block that write it.
		product := pos[1]
		if len(pos) == 3 {
			var err error
			if product, err = ws.eng.ProductOf(pos[1], pos[2]); err != nil {
				return err
			}
		}
		// Through the engine, so event triggers hear of it as of a publish.
		if err := ws.eng.RollbackProduct(ctx, product, *part, *to); err != nil {
			return err
		}
		pipeline := ""
		if pl, _ := ws.eng.Project().Product(product); pl != nil {
			pipeline = pl.ID
		} else if len(pos) == 3 {
			pipeline = pos[1]
		}
		cliAudit(ws.proj.Dir, audit.Entry{Action: audit.ActionProductRollback, Pipeline: pipeline, Target: fmt.Sprintf("%s %s v%d", product, *part, *to)})
		fmt.Printf("%s %s: version %d is current\n", product, *part, *to)
		return nil
	})
}

// runProductVersions lists a product's kept versions per partition and, on
// a DuckLake, the snapshot each became current in: what a plain duckdb
// reads it at (AT (VERSION => n)).
func runProductVersions(args []string) error {
	fs := flag.NewFlagSet("products versions", flag.ContinueOnError)
	format := fs.String("format", "table", "table or json")
	part := fs.String("partition", "", "only this partition")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("usage: strata products versions DIR PRODUCT [--partition KEY] [--format json]")
	}
	return withInspection(pos[0], func(ctx context.Context, ws *workspace) error {
		parts, err := ws.wh.Partitions(ctx, pos[1])
		if err != nil {
			return err
		}
		if *part != "" {
			parts = slices.DeleteFunc(parts, func(p warehouse.PartitionInfo) bool { return p.Key != *part })
			if len(parts) == 0 {
				return fmt.Errorf("product %s has no partition %q", pos[1], *part)
			}
		}
		if *format == "json" {
			return printJSON(parts)
		}
		tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "PARTITION\tVERSION\tCURRENT\tROWS\tCREATED\tLAKE SNAPSHOT")
		for _, p := range parts {
			for _, v := range p.Versions {
				cur, snap := "", "-"
				if v.Version == p.Current {
					cur = "*"
				}
				if v.LakeSnapshot > 0 {
					snap = fmt.Sprint(v.LakeSnapshot)
				}
				fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%s\t%s\n", p.Key, v.Version, cur, v.Rows, v.CreatedAt.Local().Format(time.DateTime), snap)
			}
		}
		return tw.Flush()
	})
}

// runProductOwners lists which pipeline owns each global product, as the
// warehouse recorded it.
func runProductOwners(args []string) error {
	fs := flag.NewFlagSet("products owners", flag.ContinueOnError)
	format := fs.String("format", "table", "table or json")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("usage: strata products owners DIR")
	}
	return withInspection(pos[0], func(ctx context.Context, ws *workspace) error {
		owners, err := ws.eng.ProductOwners(ctx)
		if err != nil {
			return err
		}
		names := slices.Sorted(maps.Keys(owners))
		if *format == "json" {
			list := make([]any, len(names))
			for i, n := range names {
				list[i] = owners[n]
			}
			return printJSON(list)
		}
		tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "PRODUCT\tPIPELINE\tSINCE\tHOW")
		for _, n := range names {
			o := owners[n]
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", o.Product, o.Pipeline, o.Since.Local().Format(time.DateTime), o.How)
		}
		return tw.Flush()
	})
}

// runProductTransfer moves a product to another pipeline: the one way a
// pipeline other than the one that first published a product may write it.
func runProductTransfer(args []string) error {
	fs := flag.NewFlagSet("products transfer", flag.ContinueOnError)
	to := fs.String("to", "", "the pipeline that is to own the product")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 2 || *to == "" {
		return fmt.Errorf("usage: strata products transfer DIR PRODUCT --to PIPELINE")
	}
	return withWorkspace(pos[0], func(ctx context.Context, ws *workspace) error {
		from, err := ws.eng.TransferProduct(ctx, pos[1], *to)
		if err != nil {
			return err
		}
		cliAudit(ws.proj.Dir, audit.Entry{Action: audit.ActionProductTransfer, Pipeline: *to, Target: pos[1]})
		if from == "" {
			from = "no recorded owner"
		}
		fmt.Printf("%s now belongs to pipeline %s (was: %s)\n", pos[1], *to, from)
		return nil
	})
}
