package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/stratahq/strata/projects/warehouse"
)

func init() {
	register("diff", "compare two kept versions of a product's partition (strata diff DIR PRODUCT --partition KEY [--from-version A --to-version B])", runDiff)
}

func runDiff(args []string) error {
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	part := fs.String("partition", "", "partition key")
	from := fs.Int("from-version", 0, "older version (default: the one before --to-version)")
	to := fs.Int("to-version", 0, "newer version (default: the current one)")
	rows := fs.Int("rows", 20, "changed rows to show")
	format := fs.String("format", "text", "text or json")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 2 || *part == "" {
		return fmt.Errorf("usage: strata diff DIR PRODUCT --partition KEY [--from-version A] [--to-version B] [--rows N]")
	}
	return withWorkspace(pos[0], func(ctx context.Context, ws *workspace) error {
		d, err := ws.eng.DiffVersions(ctx, pos[1], *part, *from, *to, *rows)
		if err != nil {
			return err
		}
		if *format == "json" {
			return printJSON(d)
		}
		printPartitionDiff(d)
		return nil
	})
}

// printPartitionDiff writes a partition diff as text: the summary, the
// schema and column changes, then the changed rows old over new.
func printPartitionDiff(d *warehouse.PartitionDiff) {
	from := fmt.Sprintf("version %d", d.From)
	if d.From == 0 {
		from = "nothing"
	}
	fmt.Printf("%s partition %s: %s → version %d: rows %d → %d\n", d.Product, d.Partition, from, d.To, d.RowsBefore, d.RowsAfter)
	if d.Unchanged {
		fmt.Println("unchanged (same content)")
		return
	}
	keys := "whole rows (no key declared)"
	if len(d.Keys) > 0 {
		keys = "key " + strings.Join(d.Keys, ", ")
	}
	fmt.Printf("%d changed, %d added, %d removed (%s)\n", d.Counts.Changed, d.Counts.Added, d.Counts.Removed, keys)
	if d.KeyNote != "" {
		fmt.Println("note:", d.KeyNote)
	}
	printSchemaChange(d.Schema)
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	changedCols := 0
	for _, c := range d.Columns {
		if c.Changed {
			if changedCols == 0 {
				fmt.Fprintln(tw, "COLUMN\tNULLS\tDISTINCT\tMIN\tMAX\tSUM")
			}
			changedCols++
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", c.Name,
				pair(c.Before, c.After, func(s *warehouse.ColumnSummary) string { return fmt.Sprint(s.Nulls) }),
				pair(c.Before, c.After, func(s *warehouse.ColumnSummary) string { return fmt.Sprint(s.Distinct) }),
				pair(c.Before, c.After, func(s *warehouse.ColumnSummary) string { return deref(s.Min) }),
				pair(c.Before, c.After, func(s *warehouse.ColumnSummary) string { return deref(s.Max) }),
				pair(c.Before, c.After, func(s *warehouse.ColumnSummary) string { return num(s.Sum) }))
		}
	}
	tw.Flush()
	if len(d.Rows) == 0 {
		return
	}
	fmt.Printf("\nfirst %d changed rows (old above new):\n", len(d.Rows))
	tw = tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "\t"+strings.Join(d.RowColumns, "\t"))
	for _, r := range d.Rows {
		if r.Old != nil {
			fmt.Fprintf(tw, "- %s\t%s\n", r.Kind, values(r.Old))
		}
		if r.New != nil {
			fmt.Fprintf(tw, "+ %s\t%s\n", r.Kind, values(r.New))
		}
	}
	tw.Flush()
}

func printSchemaChange(s warehouse.SchemaChange) {
	for _, c := range s.Added {
		fmt.Printf("column added: %s %s\n", c.Name, c.Type)
	}
	for _, c := range s.Removed {
		fmt.Printf("column removed: %s %s\n", c.Name, c.Type)
	}
	for _, c := range s.Retyped {
		fmt.Printf("column retyped: %s %s → %s\n", c.Name, c.From, c.To)
	}
}

func pair(a, b *warehouse.ColumnSummary, f func(*warehouse.ColumnSummary) string) string {
	side := func(s *warehouse.ColumnSummary) string {
		if s == nil {
			return "–"
		}
		return f(s)
	}
	x, y := side(a), side(b)
	if x == y {
		return x
	}
	return x + " → " + y
}

func deref(s *string) string {
	if s == nil {
		return "NULL"
	}
	return *s
}

func num(f *float64) string {
	if f == nil {
		return ""
	}
	return fmt.Sprintf("%.10g", *f) // float sums carry noise past that
}

func values(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		switch x := v.(type) {
		case nil:
			parts[i] = "NULL"
		case time.Time:
			parts[i] = x.UTC().Format("2006-01-02 15:04:05Z07:00")
		default:
			parts[i] = fmt.Sprint(v)
		}
	}
	return strings.Join(parts, "\t")
}
