package main

import (
	"fmt"
	"os"

	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/projectkernel"
)

func init() {
	register("mod", "manage the project's Go modules: mod add DIR MODULE@VERSION…, mod download [DIR]", runMod)
}

func runMod(args []string) error {
	usage := fmt.Errorf("usage: strata mod add DIR MODULE@VERSION… | strata mod download [DIR]")
	if len(args) == 0 {
		return usage
	}
	tool, err := build.FindToolchain()
	if err != nil {
		return err
	}
	ctx, stop := signalContext()
	defer stop()
	var out string
	switch args[0] {
	case "add":
		if len(args) < 3 {
			return usage
		}
		out, err = projectkernel.Add(ctx, tool, args[1], args[2:])
	case "download":
		dir := "."
		if len(args) > 1 {
			dir = args[1]
		}
		out, err = projectkernel.Download(ctx, tool, dir)
	default:
		return usage
	}
	if err != nil {
		return err
	}
	fmt.Fprint(os.Stderr, out)
	return nil
}
