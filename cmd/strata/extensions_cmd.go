package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/stratahq/strata/projects/extensions"
)

func init() {
	register("extensions", "install or list the DuckDB extensions a project names (strata.yaml extensions:)", runExtensions)
}

const extensionsUsage = `usage: strata extensions install [DIR] [--from FOLDER_OR_WHEEL]... [--name NAME]... [--force]
       strata extensions list [DIR] [--name NAME]... [--format json]

install puts the extensions DIR's strata.yaml names (or each --name) into DuckDB's extension
folder: from DuckDB's repository (needs the network), or from --from folders and wheels
(pip download duckdb-extension-NAME==1.5.5 --no-deps -d FOLDER). DIR defaults to ".".`

func runExtensions(args []string) error {
	if len(args) == 0 || (args[0] != "install" && args[0] != "list") {
		return fmt.Errorf("%s", extensionsUsage)
	}
	sub := args[0]
	fs := flag.NewFlagSet("extensions "+sub, flag.ContinueOnError)
	var from, names multiFlag
	fs.Var(&names, "name", "an extension to "+sub+" (repeatable); default: those DIR's strata.yaml names")
	force := false
	format := "table"
	if sub == "install" {
		fs.Var(&from, "from", "a folder of .duckdb_extension files or wheels, or a .whl (repeatable); default: DuckDB's repository")
		fs.BoolVar(&force, "force", false, "reinstall extensions that are installed already")
	} else {
		fs.StringVar(&format, "format", "table", "table or json")
	}
	flags, pos := interleaved(args[1:], map[string]bool{"force": true})
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) > 1 {
		return fmt.Errorf("%s", extensionsUsage)
	}
	dir := "."
	if len(pos) == 1 {
		dir = pos[0]
	}
	list := []string(names)
	if len(list) == 0 {
		proj, err := loadProject(dir)
		if err != nil {
			return err
		}
		if len(proj.Extensions) == 0 {
			fmt.Printf("%s names no extensions (add `extensions: [ducklake, postgres]` to strata.yaml, or give --name)\n", dir)
			return nil
		}
		list = proj.Extensions
	}
	ctx, stop := signalContext()
	defer stop()
	if sub == "list" {
		return listExtensions(ctx, list, format)
	}
	res, err := extensions.Install(ctx, list, extensions.Options{From: from, Force: force})
	for _, r := range res {
		if r.Already {
			fmt.Printf("%s: already installed (%s)\n", r.Name, r.Path)
		} else {
			fmt.Printf("%s: installed %s from %s\n", r.Name, r.Path, r.Source)
		}
	}
	return err
}

func listExtensions(ctx context.Context, names []string, format string) error {
	target, st, err := extensions.List(ctx, names)
	if err != nil {
		return err
	}
	if format == "json" {
		return printJSON(map[string]any{"duckdb": target.Version, "platform": target.Platform, "folder": target.Dir, "extensions": st})
	}
	fmt.Printf("DuckDB %s (%s), extensions in %s\n", target.Version, target.Platform, target.Dir)
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "EXTENSION\tINSTALLED")
	for _, s := range st {
		fmt.Fprintf(tw, "%s\t%v\n", s.Name, s.Installed)
	}
	return tw.Flush()
}
