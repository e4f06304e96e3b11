package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/stratahq/strata/projects/scaffold"
)

func init() {
	register("init", "create a project folder (--demo: the customer-lifetime-value demo; --demo shop: Postgres in, Parquet and Postgres out)", runInit)
}

func runInit(args []string) error {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	var demo demoFlag
	fs.Var(&demo, "demo", "write a demo project: clv (the default) or shop")
	flags, pos := interleaved(args, map[string]bool{"demo": true})
	if err := fs.Parse(flags); err != nil {
		return err
	}
	// `--demo shop`: a boolean-style flag leaves its value among the
	// positional arguments.
	if demo != "" && len(pos) == 2 && slices.Contains(scaffold.Demos, pos[1]) {
		demo, pos = demoFlag(pos[1]), pos[:1]
	}
	if len(pos) != 1 {
		return fmt.Errorf("usage: strata init DIR [--demo [%s]]", strings.Join(scaffold.Demos, "|"))
	}
	var err error
	if demo != "" {
		err = scaffold.InitDemo(pos[0], string(demo))
	} else {
		err = scaffold.Init(pos[0], false)
	}
	if err != nil {
		return err
	}
	fmt.Printf("created project %s\n", pos[0])
	switch demo {
	case "clv":
		fmt.Printf("next: strata run %s clv --partition 2024-03-10\n", pos[0])
	case "shop":
		fmt.Printf("next: see %s/README.md (a Postgres database, SHOP_PG_URL, strata mod download %s, strata run %s shop --partition 2024-03-10)\n", pos[0], pos[0], pos[0])
	}
	return nil
}

// demoFlag is --demo (the clv demo) or --demo=NAME.
type demoFlag string

func (d *demoFlag) String() string   { return string(*d) }
func (d *demoFlag) IsBoolFlag() bool { return true }
func (d *demoFlag) Set(v string) error {
	switch v {
	case "true":
		*d = "clv"
	case "false":
		*d = ""
	default:
		if !slices.Contains(scaffold.Demos, v) {
			return fmt.Errorf("no demo %q: the demos are %s", v, strings.Join(scaffold.Demos, ", "))
		}
		*d = demoFlag(v)
	}
	return nil
}
