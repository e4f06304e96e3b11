package main

import (
	"flag"
	"fmt"

	"github.com/stratahq/strata/projects/scaffold"
)

func init() {
	register("init", "create a project folder (--demo: the customer-lifetime-value demo)", runInit)
}

func runInit(args []string) error {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	demo := fs.Bool("demo", false, "write the demo pipeline")
	flags, pos := interleaved(args, map[string]bool{"demo": true})
	if err := fs.Parse(flags); err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("usage: strata init DIR [--demo]")
	}
	if err := scaffold.Init(pos[0], *demo); err != nil {
		return err
	}
	fmt.Printf("created project %s\n", pos[0])
	if *demo {
		fmt.Printf("next: strata run %s clv --partition 2024-03-10\n", pos[0])
	}
	return nil
}
