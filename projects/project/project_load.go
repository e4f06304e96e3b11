package project

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
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
	for _, f := range files {
		pl, err := l.loadPipeline(f)
		if err != nil {
			probs = append(probs, Problem{File: f, Message: err.Error()})
			continue
		}
		p.Pipelines[pl.ID] = pl
	}
	p.base = probs
	p.resolveClaims()
	return p, p.Problems.Err()
}

// SetProductOwners hands the project the owner of each global product as
// the warehouse recorded it (product -> pipeline id: the pipeline that
// first published it, or the one it was transferred to), and decides
// again which pipeline exposes each product: the recorded owner, whatever
// the file names; a pipeline that declares a product another one owns is
// the broken one. Without a record the first pipeline in id order claims
// it, until its first publish records it.
func (p *Project) SetProductOwners(owners map[string]string) {
	p.recorded = maps.Clone(owners)
	p.resolveClaims()
}

// resolveClaims computes the pipelines' problems from their own ones and
// the product claims, and the project's from them.
func (p *Project) resolveClaims() {
	ids := p.PipelineIDs()
	winners, claimProbs := claimProducts(p.Pipelines, ids, p.recorded, p.Dir)
	probs := slices.Clone(p.base)
	for _, id := range ids {
		pl := p.Pipelines[id]
		pl.Problems = append(slices.Clone(pl.own), claimProbs[id]...).normalize()
		probs = append(probs, pl.Problems...)
	}
	p.owners = winners
	tps := checkTriggerProducts(p.Pipelines, ids, winners.pipelines())
	for _, id := range ids {
		p.Pipelines[id].TriggerProblems = tps[id].normalize()
		probs = append(probs, tps[id]...)
	}
	p.Problems = probs.normalize()
}

// LoadPipeline reads one pipeline file of a loaded project, for instance
// after the editor saved it. file is relative to the project folder, such as
// "pipelines/clv.yaml". A product name that another pipeline of p already
// exposes (or owns, as recorded) is reported as a problem of this pipeline.
// The pipeline is returned with its Problems as the error; p is not
// modified.
func LoadPipeline(p *Project, file string) (*Pipeline, error) {
	l := newLoader(p)
	pl, err := l.loadPipeline(file)
	if err != nil {
		return nil, err
	}
	all := map[string]*Pipeline{}
	for id, other := range p.Pipelines {
		all[id] = other
	}
	all[pl.ID] = pl
	ids := p.PipelineIDs()
	if p.Pipelines[pl.ID] == nil {
		ids = append(ids, pl.ID)
		slices.Sort(ids)
	}
	// The other pipelines claim first, as they do when this one is new.
	others := slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return id == pl.ID })
	winners, probs := claimProducts(all, append(others, pl.ID), p.recorded, p.Dir)
	pl.Problems = append(slices.Clone(pl.own), probs[pl.ID]...).normalize()
	// Trigger checks read the other pipelines' triggers too: on copies of
	// them, so that p is not modified.
	copies := map[string]*Pipeline{}
	for id, q := range all {
		c := *q
		c.Triggers = make([]*Trigger, len(q.Triggers))
		for i, t := range q.Triggers {
			tc := *t
			c.Triggers[i] = &tc
		}
		copies[id] = &c
	}
	pl.TriggerProblems = checkTriggerProducts(copies, ids, winners.pipelines())[pl.ID].normalize()
	for i, t := range copies[pl.ID].Triggers {
		pl.Triggers[i].Disabled = t.Disabled
	}
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

// Product returns the pipeline and block exposing a global product (its
// owner, when two declare it), or nils.
func (p *Project) Product(name string) (*Pipeline, *Block) {
	if o, ok := p.owners[name]; ok {
		return o.pl, o.b
	}
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
	pl.own = pl.Problems
	return pl
}

// productOwners maps each global product name to the block that exposes it.
type productOwners map[string]productOwner

type productOwner struct {
	pl       *Pipeline
	b        *Block
	recorded bool // the warehouse records pl as its owner
}

// pipelines maps each product to its owning pipeline.
func (o productOwners) pipelines() map[string]*Pipeline {
	out := make(map[string]*Pipeline, len(o))
	for name, w := range o {
		out[name] = w.pl
	}
	return out
}

// claimProducts decides which block exposes each global product and
// returns the problems of the others, by pipeline id. A product belongs
// to the pipeline the warehouse recorded as its owner (recorded: product
// -> pipeline id), the one that first published it: a pipeline added
// later that declares the same name is the broken one, whatever the file
// names (the first in id order used to win, so adding pipelines/copy.yaml
// took "sales" from pipelines/main.yaml, and copy's runs replaced main's
// data). Products without a record go to the first block, pipelines taken
// in ids order and blocks in file order. dir is the project folder, for
// the commands the problems suggest.
func claimProducts(pipelines map[string]*Pipeline, ids []string, recorded map[string]string, dir string) (productOwners, map[string]Problems) {
	o := productOwners{}
	for _, id := range ids {
		pl := pipelines[id]
		for _, b := range pl.Blocks {
			if b.Product != "" && recorded[b.Product] == pl.ID {
				if _, taken := o[b.Product]; !taken {
					o[b.Product] = productOwner{pl, b, true}
				}
			}
		}
	}
	probs := map[string]Problems{}
	for _, id := range ids {
		pl := pipelines[id]
		for _, b := range pl.Blocks {
			if b.Product == "" {
				continue
			}
			first, taken := o[b.Product]
			if taken && first.b == b {
				continue
			}
			line, col := productPos(b)
			prob := Problem{File: pl.File, Line: line, Column: col, Field: index("blocks", b.index) + ".product"}
			owner, isRecorded := recorded[b.Product]
			switch {
			case !taken && isRecorded && owner != pl.ID:
				// Its owner no longer declares it (renamed, removed):
				// still the owner's data until ownership is moved.
				prob.Message = fmt.Sprintf("product %q belongs to pipeline %q, which first published it (recorded in the warehouse) and no longer exposes it; "+
					"pipeline %q cannot take it over implicitly: rename this product, or move ownership with `strata products transfer %s %s --to %s`",
					b.Product, owner, pl.ID, dir, b.Product, pl.ID)
			case !taken:
				o[b.Product] = productOwner{pl, b, false}
				continue
			case first.recorded && first.pl != pl:
				firstLine, _ := productPos(first.b)
				prob.Message = fmt.Sprintf("duplicate product %q: it belongs to pipeline %q (%s:%d), which first published it (recorded in the warehouse), so pipeline %q (%s) cannot expose it too; "+
					"rename this product, or move ownership with `strata products transfer %s %s --to %s`",
					b.Product, first.pl.ID, first.pl.File, firstLine, pl.ID, pl.File, dir, b.Product, pl.ID)
			default:
				firstLine, _ := productPos(first.b)
				prob.Message = fmt.Sprintf("duplicate product %q: block %q of pipeline %q already exposes it (%s:%d); product names are global to the project",
					b.Product, first.b.ID, first.pl.ID, first.pl.File, firstLine)
			}
			probs[pl.ID] = append(probs[pl.ID], prob)
		}
	}
	return o, probs
}

func productPos(b *Block) (line, col int) {
	if e, ok := b.fields["product"]; ok {
		return e.val.Line, e.val.Column
	}
	return b.Line, 0
}
