package engine

import (
	"fmt"
	"strings"
	"sync"

	"github.com/stratahq/strata/kernel/interp"
	"github.com/stratahq/strata/projects/project"
)

// CompileError refuses a backfill whose Go blocks do not compile: launched,
// every partition would fail the same way, with the reason only inside each
// one. Problems are "file:line:col: message", the file relative to the
// project, one per problem the type checker found.
type CompileError struct {
	Pipeline string
	Problems []string
}

func (e *CompileError) Error() string {
	return fmt.Sprintf("pipeline %s does not compile, so no partition could run; fix the block(s) and launch again:\n  %s",
		e.Pipeline, strings.Join(e.Problems, "\n  "))
}

// checker type-checks blocks in this process; its importer is built once.
var checker struct {
	once sync.Once
	mu   sync.Mutex // one analysis at a time: the importer's caches are shared
	x    *interp.Executor
}

// compileProblems type-checks every Go block of pl (its sources srcs), the
// check the interpreter and the compiler both start with, before anything
// is recorded or run.
func compileProblems(pl *project.Pipeline, srcs map[string]blockSource, allow []string) []string {
	checker.once.Do(func() { checker.x = interp.NewExecutor() })
	var out []string
	for _, b := range pl.Blocks {
		if b.Kind != project.KindGo {
			continue
		}
		src, ok := srcs[b.ID]
		if !ok {
			continue
		}
		checker.mu.Lock()
		rerr := checker.x.CompileError(b.File, src.text, b.Entry, allow, src.others...)
		checker.mu.Unlock()
		if rerr == nil {
			continue
		}
		if len(rerr.Diagnostics) == 0 {
			out = append(out, fmt.Sprintf("block %s: %s", b.ID, rerr.Error()))
			continue
		}
		for _, d := range rerr.Diagnostics {
			file := d.File
			if file == "" {
				file = b.File
			}
			out = append(out, fmt.Sprintf("%s:%d:%d: %s (block %s)", file, d.Line, d.Column, d.Message, b.ID))
		}
	}
	return out
}

// checkCompiles is compileProblems of a pipeline version as the error a
// launch answers.
func checkCompiles(pin *pinned) error {
	if probs := compileProblems(pin.pl, pin.srcs, pin.proj.Kernel.Allow); len(probs) > 0 {
		return &CompileError{Pipeline: pin.pl.ID, Problems: probs}
	}
	return nil
}
