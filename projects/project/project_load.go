package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// PipelinesDir holds one <id>.yaml file per pipeline.
const PipelinesDir = "pipelines"

// ErrNotProject is wrapped by Load's error when the folder has no
// strata.yaml, so callers such as "strata start" can offer to create one.
var ErrNotProject = errors.New("not a Strata project")

// loader carries what one load shares between pipelines: the project they
// inherit from and the Go block packages already parsed.
type loader struct {
	proj *Project
	pkgs map[string]*goPackage // by slash-separated folder relative to the project
}

func newLoader(p *Project) *loader {
	return &loader{proj: p, pkgs: map[string]*goPackage{}}
}

// Load reads the project in dir: strata.yaml and every pipelines/*.yaml,
// with the block files they name. It collects every problem rather than
// stopping at the first.
//
// When the project has problems, Load returns it anyway, with the error being
// its Problems: the server shows broken pipelines next to their errors, and
// each Pipeline carries its own Problems so that one broken pipeline does not
// stop the others from running. Callers that want only valid projects check
// the error. Without strata.yaml, Load returns a nil project and an error
// wrapping ErrNotProject.
func Load(dir string) (*Project, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("load project %s: %w", dir, err)
	}
	data, err := os.ReadFile(filepath.Join(abs, ProjectFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no %s: %w; run \"strata init %s\" to create one", dir, ProjectFile, ErrNotProject, dir)
	}
	if err != nil {
		return nil, fmt.Errorf("load project: %w", err)
	}
	p := &Project{Dir: abs, Pipelines: map[string]*Pipeline{}}
	d := &decoder{file: ProjectFile}
	d.decodeProject(p, d.parse(data))
	probs := d.probs
	l := newLoader(p)
	files, dirProbs := l.pipelineFiles()
	probs = append(probs, dirProbs...)
	owners := productOwners{}
	for _, f := range files {
		pl, err := l.loadPipeline(f)
		if err != nil {
			probs = append(probs, Problem{File: f, Message: err.Error()})
			continue
		}
		pl.Problems = append(pl.Problems, owners.claim(pl)...).normalize()
		p.Pipelines[pl.ID] = pl
		probs = append(probs, pl.Problems...)
	}
	for id, tp := range checkTriggerProducts(p.Pipelines, p.PipelineIDs()) {
		p.Pipelines[id].TriggerProblems = tp.normalize()
		probs = append(probs, tp...)
	}
	p.Problems = probs.normalize()
	return p, p.Problems.Err()
}

// LoadPipeline reads one pipeline file of a loaded project, for instance
// after the editor saved it. file is relative to the project folder, such as
// "pipelines/clv.yaml". A product name that another pipeline of p already
// exposes is reported as a problem of this pipeline. The pipeline is
// returned with its Problems as the error; p is not modified.
func LoadPipeline(p *Project, file string) (*Pipeline, error) {
	l := newLoader(p)
	pl, err := l.loadPipeline(file)
	if err != nil {
		return nil, err
	}
	owners := productOwners{}
	for _, id := range p.PipelineIDs() {
		if id != pl.ID {
			owners.claim(p.Pipelines[id])
		}
	}
	pl.Problems = append(pl.Problems, owners.claim(pl)...)
	all := map[string]*Pipeline{}
	for id, other := range p.Pipelines {
		all[id] = other
	}
	all[pl.ID] = pl
	ids := p.PipelineIDs()
	if p.Pipelines[pl.ID] == nil {
		ids = append(ids, pl.ID)
	}
	pl.Problems = pl.Problems.normalize()
	pl.TriggerProblems = checkTriggerProducts(all, ids)[pl.ID].normalize()
	return pl, pl.Problems.Err()
}

// PipelineIDs returns the ids of the loaded pipelines, sorted.
func (p *Project) PipelineIDs() []string {
	ids := make([]string, 0, len(p.Pipelines))
	for id := range p.Pipelines {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Product returns the pipeline and block exposing a global product, or nils.
func (p *Project) Product(name string) (*Pipeline, *Block) {
	for _, id := range p.PipelineIDs() {
		pl := p.Pipelines[id]
		for _, b := range pl.Blocks {
			if b.Product == name {
				return pl, b
			}
		}
	}
	return nil, nil
}

// pipelineFiles lists pipelines/*.yaml, sorted. Files with a near-miss
// extension are reported rather than skipped silently; other files and
// hidden editor files are ignored.
func (l *loader) pipelineFiles() ([]string, Problems) {
	ents, err := os.ReadDir(filepath.Join(l.proj.Dir, PipelinesDir))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil // a new project has no pipeline yet
	case err != nil:
		return nil, Problems{{File: PipelinesDir, Message: fmt.Sprintf("cannot list pipelines: %v", err)}}
	}
	var files []string
	var probs Problems
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		rel := PipelinesDir + "/" + name
		switch ext := path.Ext(name); {
		case ext == ".yaml":
			files = append(files, rel)
		case strings.EqualFold(ext, ".yaml") || strings.EqualFold(ext, ".yml"):
			probs = append(probs, Problem{File: rel, Message: fmt.Sprintf(
				"pipeline files end in .yaml: rename it %s/%s.yaml", PipelinesDir, strings.TrimSuffix(name, ext))})
		}
	}
	return files, probs
}

// loadPipeline decodes and validates one pipeline file. It fails only when
// the file cannot be read; everything wrong inside it is a Problem.
func (l *loader) loadPipeline(file string) (*Pipeline, error) {
	abs, err := SafeJoin(l.proj.Dir, file)
	if err != nil {
		return nil, fmt.Errorf("load pipeline: %w", err)
	}
	rel := path.Clean(filepath.ToSlash(file))
	if path.Dir(rel) != PipelinesDir || path.Ext(rel) != ".yaml" {
		return nil, fmt.Errorf("load pipeline %s: want a file %s/<id>.yaml", rel, PipelinesDir)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("load pipeline: %w", err)
	}
	return l.decodePipelineFile(rel, data), nil
}

// decodePipelineFile decodes and validates the text of pipeline file rel.
func (l *loader) decodePipelineFile(rel string, data []byte) *Pipeline {
	pl := &Pipeline{ID: strings.TrimSuffix(path.Base(rel), ".yaml"), File: rel}
	d := &decoder{file: rel}
	if err := ValidatePipelineID(pl.ID); err != nil {
		d.addf(nil, "", "%s: rename the file", err)
	}
	d.decodePipeline(pl, d.parse(data), l.proj)
	l.validate(d, pl)
	pl.Problems = d.probs.normalize()
	return pl
}

// productOwners maps each global product name to the block that exposes it
// first, pipelines taken in id order and blocks in file order.
type productOwners map[string]productOwner

type productOwner struct {
	pl *Pipeline
	b  *Block
}

// claim records pl's products and returns the problems for names already
// taken, by an earlier pipeline or an earlier block of pl.
func (o productOwners) claim(pl *Pipeline) Problems {
	var probs Problems
	for _, b := range pl.Blocks {
		if b.Product == "" {
			continue
		}
		first, taken := o[b.Product]
		if !taken {
			o[b.Product] = productOwner{pl, b}
			continue
		}
		line, col := productPos(b)
		firstLine, _ := productPos(first.b)
		probs = append(probs, Problem{
			File: pl.File, Line: line, Column: col, Field: index("blocks", b.index) + ".product",
			Message: fmt.Sprintf("duplicate product %q: block %q of pipeline %q already exposes it (%s:%d); product names are global to the project",
				b.Product, first.b.ID, first.pl.ID, first.pl.File, firstLine),
		})
	}
	return probs
}

func productPos(b *Block) (line, col int) {
	if e, ok := b.fields["product"]; ok {
		return e.val.Line, e.val.Column
	}
	return b.Line, 0
}
