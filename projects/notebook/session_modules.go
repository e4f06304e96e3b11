package notebook

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/projectkernel"
	"github.com/stratahq/strata/kernel/protocol"
)

// useProjectKernel makes the session's kernel one that carries the
// third-party packages a cell imports: the project kernel of the union of
// what the session's kernel carries and what the cell needs, built once per
// set (kernel/projectkernel caches it under .strata/kernel). While it
// builds, the cell says so. A cell importing no module keeps the kernel it
// has. The RunError is for the cell: an import the project cannot resolve,
// or no toolchain to build with.
func (s *Session) useProjectKernel(ctx context.Context, h *streamHandler, file string, req *protocol.ExecRequest) *protocol.RunError {
	srcs := []string{req.Source}
	for _, f := range req.Files {
		srcs = append(srcs, f.Source)
	}
	want := projectkernel.Imports(srcs...)
	if len(want) == 0 {
		return nil
	}
	s.kmu.Lock()
	have, cmd := s.kimports, s.kcommand
	s.kmu.Unlock()
	if projectkernel.Covers(have, want) && len(cmd) > 0 {
		if _, err := os.Stat(cmd[0]); err == nil {
			return nil
		}
		// Pruned from .strata/kernel while this session kept it: the
		// same set is built (or found) again below.
	}
	tool, err := build.FindToolchain()
	if err != nil {
		return &protocol.RunError{Kind: protocol.ErrRefused, File: file, Message: fmt.Sprintf(
			"this cell imports %s, a module: blocks importing modules run in a project kernel built with the Go toolchain, and %v", strings.Join(want, ", "), err)}
	}
	set := append(append([]string{}, have...), want...)
	dir := s.m.cfg.Engine.Project().Dir
	h.Log(protocol.LogLine{Level: "info", Time: time.Now(), Msg: "building the project kernel: " + shortNames(projectkernelNormalize(set)) + " …"})
	progress := func(step string) {
		h.Log(protocol.LogLine{Level: "info", Time: time.Now(), Msg: "project kernel: " + step})
	}
	k, err := projectkernel.Build(ctx, projectkernel.Options{Dir: filepath.Join(dir, ".strata", "kernel"), Project: dir, Tool: tool, Progress: progress}, set)
	if err != nil {
		var ie *projectkernel.ImportError
		if errors.As(err, &ie) {
			return ie.RunError(file, req.Source)
		}
		return &protocol.RunError{Kind: protocol.ErrCompile, File: file, Message: "build the project kernel: " + err.Error()}
	}
	if !k.Cached {
		h.Log(protocol.LogLine{Level: "info", Time: time.Now(), Msg: fmt.Sprintf("project kernel built in %.1f s", k.Duration.Seconds())})
	}
	s.kmu.Lock()
	s.kcommand, s.kimports = k.Command(), k.Imports
	old := s.kernel
	s.kernel = nil
	s.kmu.Unlock()
	if old != nil {
		go old.Close()
	}
	return nil
}

// shortNames is how the cell names the packages it waits for: their last
// path elements ("uuid, decimal").
func shortNames(paths []string) string {
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = path.Base(p)
		if strings.HasPrefix(names[i], "v") && len(names[i]) <= 3 { // pgx/v5
			names[i] = path.Base(path.Dir(p)) + "/" + names[i]
		}
	}
	return strings.Join(names, ", ")
}

func projectkernelNormalize(paths []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
