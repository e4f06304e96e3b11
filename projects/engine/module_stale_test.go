package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/kernel/modtest"
)

// A block that imports a module runs compiled against the project's go.mod;
// a change of that module's version in go.mod makes its outputs stale with
// that reason, and the SQL blocks below stale through it.
func TestModuleChangeMakesImportersStale(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip(err)
	}
	files := dailyFiles("")
	files["blocks/src/src.go"] = strings.Replace(strings.Replace(srcBlock, `"errors"`, "\"errors\"\n\n\t\"github.com/google/uuid\"", 1),
		`t.Append(ctx.Partition.Key, int64(i))`, `_ = uuid.NewSHA1(uuid.NameSpaceURL, []byte(ctx.Partition.Key))
		t.Append(ctx.Partition.Key, int64(i))`, 1)
	for _, f := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join("../../kernel/testdata/modules", f))
		if err != nil {
			t.Fatal(err)
		}
		files[f] = string(b)
	}
	e := newCompiledEnv(t, false, files)
	modtest.Download(t, goCmd, e.dir)
	const key = "2024-01-03"
	res := e.run("p", key)
	e.mustSucceed(res)
	if st := storedOf(t, e, "p", key); st["src"].State != "current" {
		t.Fatalf("after a run: %+v", st["src"])
	}
	gomod := files["go.mod"]
	writeFiles(t, e.dir, map[string]string{"go.mod": strings.Replace(gomod, "github.com/google/uuid v1.6.0", "github.com/google/uuid v1.5.0", 1)})
	e.reload()
	st := storedOf(t, e, "p", key)
	if s := st["src"]; s.State != "stale" || s.Cause != CauseModule || !strings.Contains(s.Reason, "module github.com/google/uuid changed (v1.6.0 → v1.5.0)") {
		t.Fatalf("src after uuid changed version: %+v", s)
	}
	if s := st["agg"]; s.State != "stale" || s.Cause != CauseUpstreamStale {
		t.Fatalf("agg: %+v", s)
	}
	// A module the block does not import changes nothing.
	writeFiles(t, e.dir, map[string]string{"go.mod": strings.Replace(gomod, "gonum.org/v1/gonum v0.17.0", "gonum.org/v1/gonum v0.16.0", 1)})
	e.reload()
	if s := storedOf(t, e, "p", key)["src"]; s.State != "current" {
		t.Fatalf("src after an unrelated module changed: %+v", s)
	}
}

// A compiled build of a pipeline version uses the go.mod and go.sum its
// snapshot pinned, not what the project folder holds now: here go.mod moved
// on to a version no cache holds, and the pinned build still succeeds.
func TestPinnedVersionBuildsWithItsModules(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip(err)
	}
	files := dailyFiles("")
	files["blocks/src/src.go"] = strings.Replace(strings.Replace(srcBlock, `"errors"`, "\"errors\"\n\n\t\"github.com/google/uuid\"", 1),
		`t.Append(ctx.Partition.Key, int64(i))`, `_ = uuid.NewSHA1(uuid.NameSpaceURL, []byte(ctx.Partition.Key))
		t.Append(ctx.Partition.Key, int64(i))`, 1)
	for _, f := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join("../../kernel/testdata/modules", f))
		if err != nil {
			t.Fatal(err)
		}
		files[f] = string(b)
	}
	e := newCompiledEnv(t, false, files)
	modtest.Download(t, goCmd, e.dir)
	pin, err := e.eng.pin("p")
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, e.dir, map[string]string{"go.mod": strings.Replace(files["go.mod"], "github.com/google/uuid v1.6.0", "github.com/google/uuid v1.99.0", 1)})
	code, err := e.eng.prepare(context.Background(), pin, EngineCompiled)
	if err != nil {
		t.Fatal(err)
	}
	defer code.release()
	if code.built == nil || len(code.built.Failed) > 0 {
		t.Fatalf("the pinned version did not build: %+v", code.built)
	}
}
