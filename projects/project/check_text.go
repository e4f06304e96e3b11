package project

import (
	"fmt"
	"path"
	"path/filepath"
)

// CheckText says what Load would report of data as the text of file
// (strata.yaml or pipelines/<id>.yaml) of project p, without writing it:
// the YAML editor's diagnostics, the same as the loader's since they are
// the loader's (file, line, column and field). A pipeline text is checked
// against p's settings and block files; a strata.yaml text on its own.
func CheckText(p *Project, file string, data []byte) (Problems, error) {
	rel := path.Clean(filepath.ToSlash(file))
	switch {
	case rel == ProjectFile:
		np := &Project{Dir: p.Dir, Pipelines: map[string]*Pipeline{}}
		d := &decoder{file: ProjectFile}
		d.decodeProject(np, d.parse(data))
		return d.probs.normalize(), nil
	case path.Dir(rel) == PipelinesDir && path.Ext(rel) == ".yaml":
		pl := newLoader(p).decodePipelineFile(rel, data)
		all := map[string]*Pipeline{pl.ID: pl}
		var ids []string
		for _, id := range p.PipelineIDs() {
			if id != pl.ID {
				all[id] = p.Pipelines[id]
				ids = append(ids, id)
			}
		}
		_, probs := claimProducts(all, append(ids, pl.ID), p.recorded, p.Dir)
		return append(pl.Problems, probs[pl.ID]...).normalize(), nil
	}
	return nil, fmt.Errorf("check %s: want %s or %s/<id>.yaml", rel, ProjectFile, PipelinesDir)
}
