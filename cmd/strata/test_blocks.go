package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/stratahq/strata/blocks/sdk/sdktest"
	kbuild "github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/scaffold"
	"github.com/stratahq/strata/projects/warehouse"
	"github.com/stratahq/strata/server"
)

// runBlockTests runs `go test ./blocks/...` in a project: a Go block is a
// package, so the _test.go files beside it are ordinary Go tests (with
// blocks/sdk/sdktest for inputs and diffs). The SDK copy the project's
// go.mod points at is refreshed first (it gains sdktest after an upgrade);
// sdktest.FromVersion finds this binary and the project through
// STRATA_BIN and STRATA_PROJECT. Offline, as compiled workers build.
// format is text (go test's own output), json (go test -json) or junit.
func runBlockTests(dir, runRE string, verbose bool, format string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	proj, err := project.Load(abs)
	if proj == nil {
		return err
	}
	n, err := countBlockTests(abs)
	if err != nil {
		return err
	}
	if n == 0 {
		fmt.Printf("no block tests in %s: add a _test.go file to a block's folder (blocks/NAME/NAME_test.go); replay tests run with --replay PIPELINE\n", filepath.Join(dir, "blocks"))
		return nil
	}
	tc, err := kbuild.FindToolchain()
	if err != nil {
		return fmt.Errorf("block tests need a Go toolchain: %w", err)
	}
	if err := scaffold.WriteGoModule(abs, proj.Name); err != nil {
		return fmt.Errorf("refresh the SDK copy in %s: %w", filepath.Join(dir, ".strata", "sdk"), err)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	args := []string{"test", "-count=1"}
	if format != "text" {
		args = append(args, "-json")
	}
	if verbose {
		args = append(args, "-v")
	}
	if runRE != "" {
		args = append(args, "-run", runRE)
	}
	args = append(args, "./blocks/...")
	cmd := exec.Command(tc.Go, args...)
	cmd.Dir = abs
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	var events bytes.Buffer
	var stderr strings.Builder
	if format == "junit" {
		cmd.Stdout, cmd.Stderr = &events, &stderr
	}
	cmd.Env = append(os.Environ(), "STRATA_BIN="+self, "STRATA_PROJECT="+abs,
		"GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	err = cmd.Run()
	if format == "junit" {
		if jerr := blockJUnit(&events, stderr.String(), os.Stdout); jerr != nil {
			return fmt.Errorf("block tests as JUnit: %w (go test's stderr: %s)", jerr, stderr.String())
		}
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return exitError{ee.ExitCode()}
	}
	return err
}

// countBlockTests counts the _test.go files under the project's blocks.
func countBlockTests(dir string) (int, error) {
	n := 0
	err := filepath.WalkDir(filepath.Join(dir, "blocks"), func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return fs.SkipAll
		}
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), "_test.go") {
			n++
		}
		return nil
	})
	return n, err
}

// readVersion prints one stored version of a product in sdktest's wire,
// for sdktest.FromVersion; version 0 is the partition's current one. It
// opens the warehouse read-only.
func readVersion(dir, product, partition string, version int) error {
	if partition == "" {
		return fmt.Errorf("--read %s needs --partition KEY (and --version V, default the current one)", product)
	}
	if version < 0 {
		return fmt.Errorf("--version %d: want 1 or more (0: the current version)", version)
	}
	err := withInspection(dir, func(ctx context.Context, ws *workspace) error {
		t, err := ws.wh.Read(ctx, product, warehouse.Selection{Partitions: []string{partition}, Version: version}, -1)
		if err != nil {
			return err
		}
		return sdktest.WriteJSON(os.Stdout, server.DropPartitionColumn(t))
	})
	var locked *warehouse.LockedError
	if errors.As(err, &locked) {
		// `strata start` holds the file while tests are written: ask it.
		return readServedVersion(dir, locked.PID, product, partition, version)
	}
	return err
}
