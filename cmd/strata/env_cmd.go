package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/stratahq/strata/projects/audit"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/envs"
	"github.com/stratahq/strata/projects/warehouse"
)

func init() {
	register("env", "environments over prod's versions: strata env create|list|diff|promote|rollback|discard DIR [NAME] (run, backfill and preview take --env NAME)", runEnv)
}

const envUsage = "usage: strata env create|diff|promote|rollback|discard DIR NAME, or strata env list DIR"

func runEnv(args []string) error {
	if len(args) == 0 {
		return errors.New(envUsage)
	}
	switch args[0] {
	case "create":
		return envCreate(args[1:])
	case "list":
		return envList(args[1:])
	case "diff":
		return envDiff(args[1:])
	case "promote":
		return envPromote(args[1:])
	case "discard":
		return envDiscard(args[1:])
	case "rollback":
		return envRollback(args[1:])
	}
	return fmt.Errorf("strata env %s: unknown; %s", args[0], envUsage)
}

func envCreate(args []string) error {
	fs := flag.NewFlagSet("env create", flag.ContinueOnError)
	triggers := fs.Bool("triggers", false, "launch every trigger firing's work into it too (by default triggers run in prod only)")
	flags, pos := interleaved(args, map[string]bool{"triggers": true})
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("usage: strata env create DIR NAME [--triggers]")
	}
	return withWorkspace(pos[0], func(ctx context.Context, ws *workspace) error {
		e, err := envs.New(ws.wh, ws.eng).Create(ctx, pos[1], envs.CreateOptions{Actor: cliActor(), Triggers: *triggers})
		if err != nil {
			return err
		}
		cliAudit(ws.proj.Dir, audit.Entry{Action: audit.ActionEnvCreate, Target: e.Name})
		fmt.Printf("environment %s: created; it shows prod's data until a run or backfill with --env %s changes it (query it as %s.<product>)\n", e.Name, e.Name, e.Name)
		if e.Triggers {
			fmt.Printf("triggers launch their work into %s too (under strata start)\n", e.Name)
		}
		return nil
	})
}

func envList(args []string) error {
	fs := flag.NewFlagSet("env list", flag.ContinueOnError)
	format := fs.String("format", "text", "text or json")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("usage: strata env list DIR [--format json]")
	}
	return withInspection(pos[0], func(ctx context.Context, ws *workspace) error {
		list, err := envs.New(ws.wh, ws.eng).List(ctx)
		if err != nil {
			return err
		}
		if *format == "json" {
			return printJSON(list)
		}
		if len(list) == 0 {
			fmt.Println("no environments (strata env create DIR NAME makes one)")
			return nil
		}
		tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ENV\tCHANGED PARTITIONS\tPRODUCTS\tROWS OF ITS OWN\tTRIGGERS\tCREATED\tBY")
		for _, e := range list {
			trig := "prod only"
			if e.Triggers {
				trig = "follows"
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t%s\n", e.Name, e.Partitions, e.Products, e.Rows, trig, e.CreatedAt.Local().Format("2006-01-02 15:04"), e.CreatedBy)
		}
		return tw.Flush()
	})
}

func envDiff(args []string) error {
	fs := flag.NewFlagSet("env diff", flag.ContinueOnError)
	product := fs.String("product", "", "with --partition: the product (block id or name) whose changed rows to show")
	part := fs.String("partition", "", "with --product: the partition whose changed rows to show")
	rows := fs.Int("rows", 20, "changed rows to show")
	format := fs.String("format", "text", "text or json")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 2 || (*part != "") != (*product != "") {
		return fmt.Errorf("usage: strata env diff DIR NAME [--product P --partition KEY [--rows N]]")
	}
	return withInspection(pos[0], func(ctx context.Context, ws *workspace) error {
		s := envs.New(ws.wh, ws.eng)
		if *part != "" {
			d, err := s.PartitionDiff(ctx, pos[1], engine.PartitionDiffOptions{Product: *product, Partition: *part, Rows: *rows})
			if err != nil {
				return err
			}
			if *format == "json" {
				return printJSON(d)
			}
			printPartitionDiff(d)
			return nil
		}
		d, err := s.Diff(ctx, pos[1])
		if err != nil {
			return err
		}
		if *format == "json" {
			return printJSON(d)
		}
		printEnvDiff(d)
		return nil
	})
}

// printEnvDiff writes the environment's diff: per pipeline and product,
// then the pipeline's checks.
func printEnvDiff(d *envs.Diff) {
	fmt.Printf("environment %s: %d partitions differ from prod\n", d.Env, d.Partitions)
	for _, pr := range d.Pipelines {
		name := pr.Pipeline
		if name == "" {
			name = "(products no pipeline writes now)"
		}
		fmt.Printf("pipeline %s\n", name)
		printProductTable(pr.Products)
		for _, p := range pr.Products {
			if !p.Schema.Empty() {
				fmt.Printf("%s:\n", p.Product)
				printSchemaChange(p.Schema)
			}
			for _, c := range p.Columns {
				if c.Changed && c.Before != nil && c.After != nil {
					fmt.Printf("  %s.%s: sum %s, distinct %d → %d, min %s → %s, max %s → %s\n", p.Product, c.Name,
						pair(c.Before, c.After, func(s *warehouse.ColumnSummary) string { return num(s.Sum) }), c.Before.Distinct, c.After.Distinct,
						deref(c.Before.Min), deref(c.After.Min), deref(c.Before.Max), deref(c.After.Max))
				}
			}
			if len(p.Newer) > 0 {
				fmt.Printf("%s: prod changed %d of these partitions since (%s): a promote is refused there\n", p.Product, len(p.Newer), strings.Join(p.Newer[:min(5, len(p.Newer))], ", "))
			}
		}
		printGates(pr.Gates)
	}
}

func envPromote(args []string) error {
	fs := flag.NewFlagSet("env promote", flag.ContinueOnError)
	override := fs.Bool("override", false, "promote although review checks failed (recorded)")
	flags, pos := interleaved(args, map[string]bool{"override": true})
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("usage: strata env promote DIR NAME [--override]")
	}
	return withWorkspace(pos[0], func(ctx context.Context, ws *workspace) error {
		res, err := envs.New(ws.wh, ws.eng).Promote(ctx, pos[1], *override, ws.proj.Dir)
		if err != nil {
			return err
		}
		detail := ""
		if len(res.Overridden) > 0 {
			names := make([]string, len(res.Overridden))
			for i, g := range res.Overridden {
				names[i] = g.Name
			}
			detail = "overrode " + strings.Join(names, ", ")
		}
		cliAudit(ws.proj.Dir, audit.Entry{Action: audit.ActionEnvPromote, Target: pos[1], Detail: detail})
		fmt.Printf("environment %s: %d versions are prod's now (one transaction, batch %s)\n", pos[1], len(res.Versions), res.Batch)
		products := make([]string, 0, len(res.Partitions))
		for p := range res.Partitions {
			products = append(products, p)
		}
		sort.Strings(products)
		for _, p := range products {
			fmt.Printf("  %s: %d partitions\n", p, res.Partitions[p])
		}
		if detail != "" {
			fmt.Printf("review checks overridden: %s\n", strings.TrimPrefix(detail, "overrode "))
		}
		return nil
	})
}

func envDiscard(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: strata env discard DIR NAME")
	}
	return withWorkspace(args[0], func(ctx context.Context, ws *workspace) error {
		n, err := envs.New(ws.wh, ws.eng).Discard(ctx, args[1])
		if err != nil {
			return err
		}
		cliAudit(ws.proj.Dir, audit.Entry{Action: audit.ActionEnvDiscard, Target: args[1]})
		fmt.Printf("environment %s: discarded with its %d versions; prod is unchanged\n", args[1], n)
		return nil
	})
}

// envOwner resolves --env for run, backfill and preview: the environment's
// pin owner, "" for prod.
func envOwner(ctx context.Context, ws *workspace, name string) (string, error) {
	return envs.New(ws.wh, ws.eng).Resolve(ctx, name)
}

// flagSet says whether the command line gave flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func envRollback(args []string) error {
	fs := flag.NewFlagSet("env rollback", flag.ContinueOnError)
	batch := fs.String("batch", "", "the promote to undo (env_NAME_…; default: the latest not rolled back)")
	flags, pos := interleaved(args, nil)
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("usage: strata env rollback DIR NAME [--batch B]")
	}
	return withWorkspace(pos[0], func(ctx context.Context, ws *workspace) error {
		b, n, err := envs.New(ws.wh, ws.eng).Rollback(ctx, pos[1], *batch)
		if err != nil {
			return err
		}
		cliAudit(ws.proj.Dir, audit.Entry{Action: audit.ActionEnvRollback, Target: pos[1], Detail: b})
		fmt.Printf("environment %s: rolled back promote %s: %d partitions are back to the versions prod held before it (one transaction)\n", pos[1], b, n)
		return nil
	})
}
