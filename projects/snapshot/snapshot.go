// Package snapshot pins a pipeline's code and settings: the pipeline file,
// every file of every block, and strata.yaml (project variables, zone and
// the other settings that change what blocks compute), under one content
// hash, the "pipeline version". A backfill runs the snapshot it took at
// launch to the end, across resume and restart, whatever happens to the
// files on disk meanwhile; single runs and every published version record
// the snapshot that computed them.
//
// The files are kept under .strata/snapshots/<hash>/ laid out as a project
// of their own, so that loading a snapshot is loading that folder with the
// ordinary project loader. Snapshot knows nothing of runs or the warehouse.
package snapshot

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/stratahq/strata/projects/fingerprint"
	"github.com/stratahq/strata/projects/project"
)

// Dir is where a project keeps its snapshots.
const Dir = ".strata/snapshots"

// Snapshot is the files that decide what one pipeline computes.
type Snapshot struct {
	Hash     string             // content hash of Files; 16 hex digits
	Pipeline string             // pipeline id
	Files    []fingerprint.File // slash-separated paths relative to the project, sorted
}

// Short is the hash as the UI and CLI show it.
func Short(hash string) string {
	if len(hash) > 7 {
		return hash[:7]
	}
	return hash
}

// Take reads the files of pipeline id of the project in dir as they are on
// disk now. It refuses a pipeline that does not load cleanly: a snapshot is
// something that can run.
func Take(dir, id string) (*Snapshot, error) {
	proj, err := project.Load(dir)
	if proj == nil {
		return nil, err
	}
	pl := proj.Pipelines[id]
	if pl == nil {
		return nil, fmt.Errorf("pipeline %q not found (pipelines: %s)", id, strings.Join(proj.PipelineIDs(), ", "))
	}
	if len(pl.Problems) > 0 {
		return nil, pl.Problems
	}
	return collect(proj, pl)
}

// collect reads the files a loaded pipeline depends on.
func collect(proj *project.Project, pl *project.Pipeline) (*Snapshot, error) {
	names := []string{project.ProjectFile, pl.File}
	// The module versions the blocks build against are part of the version.
	for _, f := range []string{"go.mod", "go.sum"} {
		if _, err := os.Stat(filepath.Join(proj.Dir, f)); err == nil {
			names = append(names, f)
		}
	}
	for _, b := range pl.Blocks {
		fs, err := BlockFiles(proj.Dir, b)
		if err != nil {
			return nil, err
		}
		names = append(names, fs...)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	s := &Snapshot{Pipeline: pl.ID}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(proj.Dir, filepath.FromSlash(n)))
		if err != nil {
			return nil, fmt.Errorf("snapshot of pipeline %s: %w", pl.ID, err)
		}
		s.Files = append(s.Files, fingerprint.File{Path: n, Src: data})
	}
	s.Hash = hashFiles(s.Files)
	return s, nil
}

// BlockFiles lists a block's source files relative to the project: a SQL
// block's file; for a Go block every non-test .go file of its package
// folder (a helper file changes what the block computes as much as the
// entry file does).
func BlockFiles(dir string, b *project.Block) ([]string, error) {
	if b.Kind != project.KindGo {
		return []string{b.File}, nil
	}
	folder := path.Dir(b.File)
	ents, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(folder)))
	if err != nil {
		return nil, fmt.Errorf("block %s: %w", b.ID, err)
	}
	out := []string{b.File}
	for _, e := range ents {
		n := e.Name()
		if e.Type().IsRegular() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") && !strings.HasPrefix(n, ".") {
			out = append(out, folder+"/"+n)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// BlockSources reads a block's files (BlockFiles) for its fingerprint.
func BlockSources(dir string, b *project.Block) ([]fingerprint.File, error) {
	names, err := BlockFiles(dir, b)
	if err != nil {
		return nil, err
	}
	out := make([]fingerprint.File, 0, len(names))
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(n)))
		if err != nil {
			return nil, fmt.Errorf("block %s: %w", b.ID, err)
		}
		out = append(out, fingerprint.File{Path: n, Src: data})
	}
	// A Go block's fingerprint counts the versions of the modules it
	// imports (fingerprint.ModFile); a SQL block's does not.
	if b.Kind == project.KindGo {
		if data, err := os.ReadFile(filepath.Join(dir, fingerprint.ModFile)); err == nil {
			out = append(out, fingerprint.File{Path: fingerprint.ModFile, Src: data})
		}
	}
	return out, nil
}

func hashFiles(files []fingerprint.File) string {
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00%d\x00", f.Path, len(f.Src))
		h.Write(f.Src)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// Path is the folder of snapshot hash in the project in dir.
func Path(dir, hash string) string { return filepath.Join(dir, filepath.FromSlash(Dir), hash) }

// Save writes the snapshot's files under Path(dir, s.Hash), unless they are
// there already (then it marks them used now: see GC). The folder appears
// whole or not at all (written aside, then renamed), so a crash never
// leaves half a snapshot to run.
func (s *Snapshot) Save(dir string) error {
	final := Path(dir, s.Hash)
	if _, err := os.Stat(final); err == nil {
		return Touch(dir, s.Hash, time.Now())
	}
	root := filepath.Join(dir, filepath.FromSlash(Dir))
	if err := os.MkdirAll(root, 0o755); err != nil {
		return fmt.Errorf("save snapshot %s: %w", s.Hash, err)
	}
	tmp, err := os.MkdirTemp(root, ".tmp-"+s.Hash+"-")
	if err != nil {
		return fmt.Errorf("save snapshot %s: %w", s.Hash, err)
	}
	defer os.RemoveAll(tmp) // gone after the rename; cleans up after a failure
	for _, f := range s.Files {
		p := filepath.Join(tmp, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("save snapshot %s: %w", s.Hash, err)
		}
		if err := os.WriteFile(p, f.Src, 0o444); err != nil {
			return fmt.Errorf("save snapshot %s: %w", s.Hash, err)
		}
	}
	if err := os.Rename(tmp, final); err != nil {
		if _, serr := os.Stat(final); serr == nil {
			return nil // another process saved the same snapshot first
		}
		return fmt.Errorf("save snapshot %s: %w", s.Hash, err)
	}
	return nil
}

// ErrMissing is wrapped when a snapshot's folder is gone.
var ErrMissing = errors.New("snapshot files are missing")

// Open loads pipeline id from snapshot hash of the project in dir. It
// checks that the files still hash to hash: a snapshot edited in place is
// refused rather than run as if it were the pinned code.
func Open(dir, hash, id string) (*project.Project, *project.Pipeline, error) {
	root := Path(dir, hash)
	if _, err := os.Stat(root); errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("pipeline version %s: %w (%s); retry with the current code (--use-current-code)", hash, ErrMissing, root)
	}
	proj, err := project.Load(root)
	if proj == nil {
		return nil, nil, fmt.Errorf("pipeline version %s: %w", hash, err)
	}
	pl := proj.Pipelines[id]
	if pl == nil {
		return nil, nil, fmt.Errorf("pipeline version %s has no pipeline %q (%s)", hash, id, root)
	}
	if len(pl.Problems) > 0 {
		return nil, nil, fmt.Errorf("pipeline version %s: %w", hash, pl.Problems)
	}
	s, err := collect(proj, pl)
	if err != nil {
		return nil, nil, err
	}
	if s.Hash != hash {
		return nil, nil, fmt.Errorf("pipeline version %s: its files under %s were changed (they hash to %s); retry with the current code (--use-current-code)", hash, root, s.Hash)
	}
	return proj, pl, nil
}
