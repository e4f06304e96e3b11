package sdktest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/stratahq/strata/blocks/sdk"
)

// FromVersion reads one stored version of a product's partition from the
// project's warehouse: the rows an upstream really held, as a block's test
// input. The read goes through the strata binary (`strata test --read`:
// the warehouse opened read-only, or the API of the `strata start` that
// holds it):
// $STRATA_BIN (which `strata test` sets to itself), else `strata` on PATH.
// The project is $STRATA_PROJECT (set by `strata test` too), else the
// nearest folder up from the test's with a strata.yaml. version 0 reads
// the partition's current version.
func FromVersion(ctx context.Context, product, partition string, version int) (*sdk.Table, error) {
	bin := os.Getenv("STRATA_BIN")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("strata"); err != nil {
			return nil, fmt.Errorf("sdktest.FromVersion: no strata binary: run the tests with `strata test`, or put strata on PATH or its path in STRATA_BIN")
		}
	}
	dir, err := projectDir()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, bin, "test", dir, "--read", product, "--partition", partition, "--version", strconv.Itoa(version))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := bytes.TrimSpace(stderr.Bytes())
		return nil, fmt.Errorf("sdktest.FromVersion(%s, %s, %d): %s", product, partition, version, firstNonEmpty(string(msg), err.Error()))
	}
	t, err := ReadJSON(&stdout)
	if err != nil {
		return nil, fmt.Errorf("sdktest.FromVersion(%s, %s, %d): %w", product, partition, version, err)
	}
	return t, nil
}

// projectDir is $STRATA_PROJECT, else the nearest folder with a strata.yaml.
func projectDir() (string, error) {
	if d := os.Getenv("STRATA_PROJECT"); d != "" {
		return d, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "strata.yaml")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("sdktest.FromVersion: no strata.yaml in the test's folder or above it: set STRATA_PROJECT to the project folder")
		}
		dir = up
	}
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
