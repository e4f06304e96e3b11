package server

import (
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
)

// The notebook's structure, edited from the browser: where a block sits,
// its name, the note above it, and the name of a pipeline. Each edit is file
// surgery on the pipeline file (project.MoveBlock, RenameBlock, SetBlockNote
// keep comments and key order) plus the block files it implies, written
// under s.files and followed by a reload, like every other save.

func (s *Server) structureRoutes(g *echo.Group) {
	g.POST("/pipelines/:id/rename", s.renamePipeline)
	g.GET("/pipelines/:id/delete-plan", s.pipelineDeletePlan)
	g.POST("/pipelines/:id/blocks/:block/move", s.moveBlock)
	g.POST("/pipelines/:id/blocks/:block/rename", s.renameBlock)
	g.PUT("/pipelines/:id/blocks/:block/note", s.putBlockNote)
	g.PUT("/pipelines/:id/note", s.putEndNote)
}

// newPipelineForm is POST /pipelines without yaml: what the "New pipeline"
// form asks for. The file is written from it (project.NewPipelineFile).
type newPipelineForm struct {
	Description string `json:"description"`
	Partitions  *struct {
		Interval string `json:"interval"`
		Timezone string `json:"timezone"`
		Start    string `json:"start"`
	} `json:"partitions"`
	Block *struct {
		ID   string `json:"id"`
		Kind string `json:"kind"`
	} `json:"block"`
}

// newPipelineText builds the file of a pipeline created from the form, and
// the first block's file and source when the form names one. Bad settings
// are a 400 naming the field, before anything is written.
func (s *Server) newPipelineText(f newPipelineForm) (text []byte, blockFile, blockSrc string, err error) {
	pc := project.PartitionConfig{Interval: "day", Timezone: s.eng.Project().Timezone}
	if p := f.Partitions; p != nil {
		if p.Interval != "" {
			pc.Interval = p.Interval
		}
		if p.Timezone != "" {
			pc.Timezone = p.Timezone
		}
		pc.Start = strings.TrimSpace(p.Start)
	}
	if !slices.Contains(project.Intervals, pc.Interval) {
		return nil, "", "", badRequest("partitions.interval %q: want one of %s", pc.Interval, strings.Join(project.Intervals, ", "))
	}
	if pc.Interval == "none" {
		pc.Start = ""
	}
	if _, err := engine.SpecOf(pc); err != nil {
		return nil, "", "", badRequest("partitions: %s", err.Error())
	}
	first := ""
	if b := f.Block; b != nil {
		if err := project.ValidateBlockID(b.ID); err != nil {
			return nil, "", "", badRequest("block.id: %s", err.Error())
		}
		kind, err := newFileKind(&project.Pipeline{}, &project.Block{ID: b.ID}, b.Kind)
		if err != nil {
			return nil, "", "", err
		}
		first, blockFile, blockSrc = b.ID, defaultBlockFile(b.ID, kind), blockTemplate(b.ID, kind, nil)
	}
	text, err = project.NewPipelineFile(strings.TrimSpace(f.Description), pc, first)
	return text, blockFile, blockSrc, err
}

// moveBlock: POST /pipelines/:id/blocks/:block/move {"before": id or ""}
// places the block just before another in the pipeline file ("" at the
// end). The file's order is the notebook's order, so a block cannot go
// above a block it reads (nor below one that reads it): 409 naming it.
func (s *Server) moveBlock(c echo.Context) error {
	pl, b, err := s.pipelineBlock(c.Param("id"), c.Param("block"))
	if err != nil {
		return err
	}
	var req struct {
		Before string `json:"before"`
	}
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if req.Before != "" && pl.Block(req.Before) == nil {
		return badRequest("before: pipeline %s has no block %q", pl.ID, req.Before)
	}
	// The order after the move, checked against the upstream lists.
	ids := make([]string, 0, len(pl.Blocks))
	for _, o := range pl.Blocks {
		if o.ID != b.ID {
			ids = append(ids, o.ID)
		}
	}
	at := len(ids)
	if req.Before != "" {
		at = slices.Index(ids, req.Before)
	}
	ids = slices.Insert(ids, at, b.ID)
	pos := map[string]int{}
	for i, id := range ids {
		pos[id] = i
	}
	for _, o := range pl.Blocks {
		for _, u := range o.Upstream {
			if p, ok := pos[u]; ok && p > pos[o.ID] {
				return conflict("%s reads %s, so it cannot come before it: move it below %s", o.ID, u, u)
			}
		}
	}
	return s.editPipelineFile(c, pl, func(y []byte) ([]byte, error) { return project.MoveBlock(y, b.ID, req.Before) }, b.ID)
}

// putBlockNote: PUT /pipelines/:id/blocks/:block/note {"note"} sets the
// markdown shown above the block (the notebook's text cells); "" removes it.
func (s *Server) putBlockNote(c echo.Context) error {
	pl, b, err := s.pipelineBlock(c.Param("id"), c.Param("block"))
	if err != nil {
		return err
	}
	note, err := decodeNote(c)
	if err != nil {
		return err
	}
	return s.editPipelineFile(c, pl, func(y []byte) ([]byte, error) { return project.SetBlockNote(y, b.ID, note) }, b.ID)
}

// putEndNote: PUT /pipelines/:id/note {"note"} sets the markdown shown
// after the last block (end_note of the pipeline file); "" removes it.
// It answers with the pipeline.
func (s *Server) putEndNote(c echo.Context) error {
	pl, err := s.loadedPipeline(c.Param("id"))
	if err != nil {
		return err
	}
	note, err := decodeNote(c)
	if err != nil {
		return err
	}
	s.files.Lock()
	defer s.files.Unlock()
	proj, err := s.rewritePipelineFile(pl, func(y []byte) ([]byte, error) { return project.SetEndNote(y, note) })
	if err != nil {
		return err
	}
	return s.pipelineResponse(c, http.StatusOK, proj, pl.ID)
}

// decodeNote reads a note edit's body, {"note": "markdown"}.
func decodeNote(c echo.Context) (string, error) {
	var req struct {
		Note *string `json:"note"`
	}
	if err := decodeJSON(c, &req); err != nil {
		return "", err
	}
	if req.Note == nil {
		return "", badRequest(`want {"note": "markdown text"} ("" removes the note)`)
	}
	return *req.Note, nil
}

// editPipelineFile applies edit to the pipeline file, writes it, reloads,
// and answers with the block.
func (s *Server) editPipelineFile(c echo.Context, pl *project.Pipeline, edit func([]byte) ([]byte, error), block string) error {
	s.files.Lock()
	defer s.files.Unlock()
	if _, err := s.rewritePipelineFile(pl, edit); err != nil {
		return err
	}
	return s.blockResponse(c, http.StatusOK, pl.ID, block)
}

// rewritePipelineFile applies edit to the pipeline file, writes it and
// reloads the project, which it returns. The caller holds s.files (until
// it has answered, so the answer is the state this edit made).
func (s *Server) rewritePipelineFile(pl *project.Pipeline, edit func([]byte) ([]byte, error)) (*project.Project, error) {
	y, err := s.readFile(pl.File)
	if err != nil {
		return nil, err
	}
	out, err := edit(y)
	if err != nil {
		return nil, apiErr(http.StatusUnprocessableEntity, CodeUnprocessable, "cannot edit %s: %s; fix the file first", pl.File, err)
	}
	if err := s.writeFile(pl.File, out); err != nil {
		return nil, err
	}
	return s.reload()
}

// renameBlock: POST /pipelines/:id/blocks/:block/rename {"id"}. The id
// changes in the pipeline file and in every upstream list naming it; a
// block at its default place moves with it (blocks/<old>/ becomes
// blocks/<new>/ with its file and package clause renamed, or
// blocks/<old>.sql becomes blocks/<new>.sql); SQL blocks reading it name the
// new relation. Its stored outputs stay under the old product name: the
// renamed block writes a new one (the answer says which files changed).
func (s *Server) renameBlock(c echo.Context) error {
	pl, b, err := s.pipelineBlock(c.Param("id"), c.Param("block"))
	if err != nil {
		return err
	}
	var req struct {
		ID string `json:"id"`
	}
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if err := project.ValidateBlockID(req.ID); err != nil {
		return badRequest("id: %s", err.Error())
	}
	if req.ID == b.ID {
		return badRequest("block %s already has that id", b.ID)
	}
	if pl.Block(req.ID) != nil {
		return conflict("pipeline %s already has a block %q", pl.ID, req.ID)
	}
	if b.File != "" && s.fileUsedElsewhere(pl.ID, b.File) {
		return conflict("%s is also used by another pipeline: rename the block there too, or give it its own file first", b.File)
	}
	s.files.Lock()
	defer s.files.Unlock()
	y, err := s.readFile(pl.File)
	if err != nil {
		return err
	}
	edited, err := project.RenameBlock(y, b.ID, req.ID)
	if err != nil {
		return apiErr(http.StatusUnprocessableEntity, CodeUnprocessable, "cannot rename in %s: %s; fix the file first", pl.File, err)
	}
	changed := []string{pl.File}
	moved, err := s.moveBlockFiles(b, req.ID)
	if err != nil {
		return err
	}
	changed = append(changed, moved...)
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(b.ID) + `\b`)
	for _, d := range pl.Blocks {
		if d.Kind != project.KindSQL || d.File == "" || !slices.Contains(d.Upstream, b.ID) {
			continue
		}
		src, err := s.readFile(d.File)
		if err != nil {
			continue // reported as a problem at reload
		}
		if out := word.ReplaceAll(src, []byte(req.ID)); string(out) != string(src) {
			if err := s.writeFile(d.File, out); err != nil {
				return err
			}
			changed = append(changed, d.File)
		}
	}
	if err := s.writeFile(pl.File, edited); err != nil {
		return err
	}
	if _, err := s.reload(); err != nil {
		return err
	}
	c.Response().Header().Set("X-Strata-Changed", strings.Join(changed, ","))
	return s.blockResponse(c, http.StatusOK, pl.ID, req.ID)
}

// moveBlockFiles renames a block's file when it sits at its default place;
// a file the pipeline names explicitly (file:) stays where it is.
func (s *Server) moveBlockFiles(b *project.Block, id string) ([]string, error) {
	if b.File == "" || b.File != defaultBlockFile(b.ID, b.Kind) {
		return nil, nil
	}
	abs := func(rel string) (string, error) { return project.SafeJoin(s.cfg.ProjectDir, rel) }
	if b.Kind == project.KindSQL {
		to := defaultBlockFile(id, project.KindSQL)
		if _, err := s.readFile(to); err == nil {
			return nil, conflict("%s already exists: choose another id or remove that file", to)
		}
		from, _ := abs(b.File)
		dst, err := abs(to)
		if err != nil {
			return nil, err
		}
		return []string{b.File, to}, os.Rename(from, dst)
	}
	fromDir, toDir := path.Dir(b.File), path.Dir(defaultBlockFile(id, project.KindGo))
	src, err := abs(fromDir)
	if err != nil {
		return nil, err
	}
	dst, err := abs(toDir)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(dst); err == nil {
		return nil, conflict("%s/ already exists: choose another id or remove that folder", toDir)
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		return nil, err
	}
	if err := os.Rename(src, dst); err != nil {
		return nil, err
	}
	pkg := regexp.MustCompile(`(?m)^package ` + regexp.QuoteMeta(b.ID) + `\b`)
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") {
			continue
		}
		rel := toDir + "/" + name
		data, err := s.readFile(rel)
		if err != nil {
			return nil, err
		}
		if out := pkg.ReplaceAll(data, []byte("package "+id)); string(out) != string(data) {
			if err := s.writeFile(rel, out); err != nil {
				return nil, err
			}
		}
	}
	main := toDir + "/" + path.Base(b.File)
	want := defaultBlockFile(id, project.KindGo)
	from, _ := abs(main)
	to, _ := abs(want)
	if err := os.Rename(from, to); err != nil {
		return nil, err
	}
	return []string{fromDir + "/", toDir + "/"}, nil
}

// renamePipeline: POST /pipelines/:id/rename {"id"} renames the pipeline
// file (and its id: field when it has one). Its runs keep the old id and its
// stored outputs the old product names (<pipeline>__<block>): blocks that
// expose a product: keep theirs.
func (s *Server) renamePipeline(c echo.Context) error {
	old := c.Param("id")
	from, err := pipelineFile(old)
	if err != nil {
		return err
	}
	var req struct {
		ID string `json:"id"`
	}
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	to, err := pipelineFile(req.ID)
	if err != nil {
		return err
	}
	s.files.Lock()
	defer s.files.Unlock()
	text, err := s.readFile(from)
	if errors.Is(err, fs.ErrNotExist) {
		return notFound("pipeline %q not found", old)
	} else if err != nil {
		return err
	}
	if _, err := s.readFile(to); err == nil {
		return conflict("pipeline %q already exists (%s)", req.ID, to)
	}
	text = regexp.MustCompile(`(?m)^id:\s*["']?`+regexp.QuoteMeta(old)+`["']?\s*$`).ReplaceAll(text, []byte("id: "+req.ID))
	if err := s.writeFile(to, text); err != nil {
		return err
	}
	if err := s.removeFile(from); err != nil {
		return err
	}
	proj, err := s.reload()
	if err != nil {
		return err
	}
	return s.pipelineResponse(c, http.StatusOK, proj, req.ID)
}

// deletePlan says what deleting a pipeline removes and what stays, so the
// confirmation lists exactly what the action changes.
type deletePlan struct {
	Pipeline string   `json:"pipeline"`
	Removes  []string `json:"removes"`  // files deleted (with ?blocks=true, the block files no other pipeline uses)
	Keeps    []string `json:"keeps"`    // block files left: shared with another pipeline, or blocks=false
	Products []string `json:"products"` // stored outputs, which stay in the warehouse
}

func (s *Server) planPipelineDelete(pl *project.Pipeline, withBlocks bool) deletePlan {
	p := deletePlan{Pipeline: pl.ID, Removes: []string{pl.File}, Keeps: []string{}, Products: []string{}}
	for _, b := range pl.Blocks {
		p.Products = append(p.Products, engine.ProductName(pl, b))
		if b.File == "" || slices.Contains(p.Removes, b.File) || slices.Contains(p.Keeps, b.File) {
			continue
		}
		if withBlocks && !s.fileUsedElsewhere(pl.ID, b.File) {
			p.Removes = append(p.Removes, b.File)
		} else {
			p.Keeps = append(p.Keeps, b.File)
		}
	}
	return p
}

// pipelineDeletePlan: GET /pipelines/:id/delete-plan?blocks=true.
func (s *Server) pipelineDeletePlan(c echo.Context) error {
	pl, err := s.loadedPipeline(c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, s.planPipelineDelete(pl, c.QueryParam("blocks") == "true"))
}
