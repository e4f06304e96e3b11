package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/stratahq/strata/projects/audit"
	"github.com/stratahq/strata/projects/engine"
)

// The review flow of a backfill launched with --publish review: diff (the
// review summary, or one partition's rows), promote (all, or --only a
// range), discard, and rollback of what a promote made current.

func backfillDiff(args []string) error {
	fs := flag.NewFlagSet("backfill diff", flag.ContinueOnError)
	product := fs.String("product", "", "one product (block id or product name): with --partition, its row diff")
	part := fs.String("partition", "", "with --product: the partition whose changed rows to show")
	rows := fs.Int("rows", 20, "changed rows to show")
	format := fs.String("format", "text", "text or json")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 2 || (*part != "" && *product == "") {
		return fmt.Errorf("usage: strata backfill diff DIR ID [--product P --partition KEY [--rows N]]")
	}
	return withWorkspace(pos[0], func(ctx context.Context, ws *workspace) error {
		if *part != "" {
			d, err := ws.eng.BackfillPartitionDiff(ctx, pos[1], engine.PartitionDiffOptions{Product: *product, Partition: *part, Rows: *rows})
			if err != nil {
				return err
			}
			if *format == "json" {
				return printJSON(d)
			}
			printPartitionDiff(d)
			return nil
		}
		rv, err := ws.eng.BackfillReview(ctx, pos[1])
		if err != nil {
			return err
		}
		if *product != "" {
			kept := rv.Products[:0]
			for _, p := range rv.Products {
				if p.Block == *product || p.Product == *product {
					kept = append(kept, p)
				}
			}
			rv.Products = kept
		}
		if *format == "json" {
			return printJSON(rv)
		}
		printReview(rv)
		return nil
	})
}

// printReview writes the review summary: per product, then the gates.
func printReview(rv *engine.BackfillReview) {
	st := rv.Backfill
	fmt.Printf("backfill %s (%s %s..%s): %s; %d versions staged\n", st.ID, st.Pipeline, st.Spec.From, st.Spec.To, st.State, rv.Staged)
	printProductTable(rv.Products)
	for _, p := range rv.Products {
		if !p.Schema.Empty() {
			fmt.Printf("%s:\n", p.Product)
			printSchemaChange(p.Schema)
		}
		if len(p.Newer) > 0 {
			fmt.Printf("%s: a newer version is current in %d partitions (%s): a promote there is refused\n", p.Product, len(p.Newer), strings.Join(p.Newer[:min(5, len(p.Newer))], ", "))
		}
	}
	printGates(rv.Gates)
	for _, p := range rv.Promotions {
		line := fmt.Sprintf("promoted %d versions at %s", p.Versions, p.At.Local().Format("2006-01-02 15:04:05"))
		if p.Only != "" {
			line += " (only " + p.Only + ")"
		}
		if len(p.Overridden) > 0 {
			line += ", overriding " + strings.Join(p.Overridden, ", ")
		}
		fmt.Println(line)
	}
}

// printProductTable writes one line per product of a review (a backfill's
// or an environment's): versions changed, rows before and after, the key.
func printProductTable(products []engine.ProductReview) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PRODUCT\tCHANGED\tUNCHANGED\tNEW\tROWS\tROWS CHANGED/ADDED/REMOVED\tKEY")
	for _, p := range products {
		key := strings.Join(p.Keys, ",")
		if key == "" {
			key = "(whole rows)"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d → %d\t%d/%d/%d\t%s\n", p.Product, p.Changed, p.Unchanged, p.New,
			p.RowsBefore, p.RowsAfter, p.Counts.Changed, p.Counts.Added, p.Counts.Removed, key)
	}
	tw.Flush()
}

// printGates writes each review check with pass or FAIL and its failures.
func printGates(gates []engine.GateResult) {
	for _, g := range gates {
		mark := "pass"
		if !g.Passed {
			mark = "FAIL"
		}
		fmt.Printf("check %-4s %s: %s\n", mark, g.Name, g.Detail)
		for _, f := range g.Failures {
			fmt.Printf("    %s\n", f)
		}
	}
}

func backfillPromote(args []string) error {
	fs := flag.NewFlagSet("backfill promote", flag.ContinueOnError)
	var opt engine.PromoteOptions
	fs.StringVar(&opt.Only, "only", "", "promote only the partitions starting in A..B (pipeline partition keys; one cell key of a pipeline with dimensions)")
	var where whereFlag
	fs.Var(&where, "where", "with dimensions: promote only these cells, region=eu,us (repeatable)")
	fs.BoolVar(&opt.Override, "override", false, "promote although review checks failed (recorded)")
	fs.BoolVar(&opt.SkipNewer, "skip-newer", false, "promote the rest when some partitions have newer versions current (they keep them; their staged versions stay staged)")
	flags, pos := interleaved(args, map[string]bool{"override": true, "skip-newer": true})
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("usage: strata backfill promote DIR ID [--only A..B] [--where DIM=V,V] [--override] [--skip-newer]")
	}
	opt.Where = where.m
	return withWorkspace(pos[0], func(ctx context.Context, ws *workspace) error {
		opt.Actor = cliActor()
		res, err := ws.eng.PromoteBackfill(ctx, pos[1], opt)
		if err != nil {
			return err
		}
		cliAudit(ws.proj.Dir, audit.Entry{Action: audit.ActionPromote, Target: pos[1]})
		fmt.Printf("backfill %s: %d versions are current now (one transaction)", pos[1], res.Versions)
		if len(res.Overridden) > 0 {
			fmt.Printf("; review checks overridden: %s", strings.Join(res.Overridden, ", "))
		}
		fmt.Println()
		products := make([]string, 0, len(res.Partitions))
		for p := range res.Partitions {
			products = append(products, p)
		}
		sort.Strings(products)
		for _, p := range products {
			fmt.Printf("  %s: %d partitions\n", p, res.Partitions[p])
		}
		for _, c := range res.Skipped {
			fmt.Printf("  skipped %s %s: v%d is current (newer work), the staged v%d stays staged\n", c.Product, c.Partition, c.Current, c.Want)
		}
		if res.Remaining > 0 {
			fmt.Printf("%d versions are still staged for review\n", res.Remaining)
		}
		return nil
	})
}

func backfillDiscard(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: strata backfill discard DIR ID")
	}
	return withWorkspace(args[0], func(ctx context.Context, ws *workspace) error {
		n, err := ws.eng.DiscardBackfill(ctx, args[1])
		if err != nil {
			return err
		}
		cliAudit(ws.proj.Dir, audit.Entry{Action: audit.ActionDiscard, Target: args[1]})
		fmt.Printf("backfill %s: discarded %d staged versions; none of them was made current\n", args[1], n)
		if st, err := ws.eng.Backfill(ctx, args[1]); err == nil && st.Progress.Succeeded > 0 {
			fmt.Printf("the %d partitions promoted before stay current\n", st.Progress.Succeeded)
		}
		return nil
	})
}

func backfillRollback(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: strata backfill rollback DIR ID")
	}
	return withWorkspace(args[0], func(ctx context.Context, ws *workspace) error {
		n, err := ws.eng.RollbackBackfill(ctx, args[1])
		if err != nil {
			return err
		}
		cliAudit(ws.proj.Dir, audit.Entry{Action: audit.ActionRollback, Target: args[1]})
		fmt.Printf("backfill %s: rolled back %d partitions to the versions current before it (one transaction)\n", args[1], n)
		return nil
	})
}
