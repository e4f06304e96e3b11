package server

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
)

func (s *Server) blockRoutes(g *echo.Group) {
	g.GET("/pipelines/:id/blocks", s.listBlocks)
	g.POST("/pipelines/:id/blocks", s.createBlock)
	g.GET("/pipelines/:id/blocks/:block", s.getBlock)
	g.PUT("/pipelines/:id/blocks/:block", s.putBlock)
	g.DELETE("/pipelines/:id/blocks/:block", s.deleteBlock)
}

// blockView is a block as the pipeline file and its source define it.
type blockView struct {
	ID         string         `json:"id"`
	File       string         `json:"file"`
	Kind       string         `json:"kind"` // go or sql; "" when no file was found
	Upstream   []string       `json:"upstream"`
	Dynamic    bool           `json:"dynamic"`
	Reduce     bool           `json:"reduce"`
	FanOut     string         `json:"fan_out,omitempty"` // the dynamic block it runs one child per row of
	Product    string         `json:"product,omitempty"` // global product name it exposes
	Writes     string         `json:"writes"`            // the warehouse product holding its output
	Partitions partitionsView `json:"partitions"`
	Entry      string         `json:"entry,omitempty"` // Load, Transform or Export
	HasCheck   bool           `json:"has_check"`
	Line       int            `json:"line"` // in the pipeline file
	Note       string         `json:"note"` // markdown shown above the cell
	Timeout    string         `json:"timeout"`
	Retries    retriesView    `json:"retries"`
}

// blockDetail adds the source and the problems found in the block's file.
type blockDetail struct {
	blockView
	Pipeline string            `json:"pipeline"`
	Source   string            `json:"source"`
	ETag     string            `json:"etag"` // the file's version, for If-Match on save
	Problems []project.Problem `json:"problems"`
}

func newBlockView(pl *project.Pipeline, b *project.Block) blockView {
	up := b.Upstream
	if up == nil {
		up = []string{}
	}
	return blockView{
		ID: b.ID, File: b.File, Kind: b.Kind, Upstream: up, Dynamic: b.Dynamic, Reduce: b.Reduce,
		FanOut: b.FanOut, Product: b.Product, Writes: engine.ProductName(pl, b),
		Partitions: partitionsOf(b.Partitions), Entry: b.Entry, HasCheck: b.HasCheck, Line: b.Line, Note: b.Note,
		Timeout: b.Timeout.String(), Retries: retriesOf(b.Retries),
	}
}

func (s *Server) listBlocks(c echo.Context) error {
	pl, err := s.loadedPipeline(c.Param("id"))
	if err != nil {
		return err
	}
	out := struct {
		Blocks []blockView `json:"blocks"`
	}{Blocks: []blockView{}}
	for _, b := range pl.Blocks {
		out.Blocks = append(out.Blocks, newBlockView(pl, b))
	}
	return c.JSON(http.StatusOK, out)
}

// pipelineBlock finds a block of a loaded pipeline, checking both ids.
func (s *Server) pipelineBlock(pipelineID, blockID string) (*project.Pipeline, *project.Block, error) {
	if err := project.ValidateBlockID(blockID); err != nil {
		return nil, nil, badRequest("%s", err.Error())
	}
	pl, err := s.loadedPipeline(pipelineID)
	if err != nil {
		return nil, nil, err
	}
	b := pl.Block(blockID)
	if b == nil {
		ids := make([]string, 0, len(pl.Blocks))
		for _, b := range pl.Blocks {
			ids = append(ids, b.ID)
		}
		return nil, nil, notFound("pipeline %s has no block %q (blocks: %s)", pl.ID, blockID, strings.Join(ids, ", "))
	}
	return pl, b, nil
}

func (s *Server) blockResponse(c echo.Context, status int, pipelineID, blockID string) error {
	pl, b, err := s.pipelineBlock(pipelineID, blockID)
	if err != nil {
		return err
	}
	d := blockDetail{blockView: newBlockView(pl, b), Pipeline: pl.ID, Problems: problemsJSON(nil)}
	if b.File != "" {
		src, err := s.readFile(b.File)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		d.Source = string(src)
		if err == nil {
			d.ETag = etagOf(src)
			c.Response().Header().Set("ETag", d.ETag)
		}
		d.Problems = problemsJSON(pl.Problems.ForFile(b.File))
	}
	return c.JSON(status, d)
}

func (s *Server) getBlock(c echo.Context) error {
	return s.blockResponse(c, http.StatusOK, c.Param("id"), c.Param("block"))
}

// defaultBlockFile is where a new block's source goes: a Go block is a
// package, one folder each; a SQL block is one file.
func defaultBlockFile(id, kind string) string {
	if kind == project.KindSQL {
		return "blocks/" + id + ".sql"
	}
	return "blocks/" + id + "/" + id + ".go"
}

// putBlock saves a block's source. Problems the loader finds in it (no entry
// function, a parameter count that does not match the upstreams) come back
// in the answer; the file is saved regardless, like any editor save.
func (s *Server) putBlock(c echo.Context) error {
	pl, b, err := s.pipelineBlock(c.Param("id"), c.Param("block"))
	if err != nil {
		if file, ok := s.unlistedBlockFile(c.Param("id"), c.Param("block")); ok {
			return s.putUnlistedBlock(c, file)
		}
		return err
	}
	src, err := readText(c, "source")
	if err != nil {
		return err
	}
	file := b.File
	if file == "" {
		kind, err := newFileKind(pl, b, c.QueryParam("kind"))
		if err != nil {
			return err
		}
		file = defaultBlockFile(b.ID, kind)
	}
	data := []byte(src)
	// ?format=gofmt: a Go block is written as gofmt prints it (the editor's
	// "gofmt on save"); source that does not parse is written as it is.
	if c.QueryParam("format") == "gofmt" && strings.HasSuffix(file, ".go") {
		data, _ = project.FormatGo(file, data)
	}
	s.files.Lock()
	defer s.files.Unlock()
	if err := s.checkIfMatch(c, file); err != nil {
		return err
	}
	if err := s.writeFile(file, data); err != nil {
		return err
	}
	if _, err := s.reload(); err != nil {
		return err
	}
	return s.blockResponse(c, http.StatusOK, pl.ID, b.ID)
}

// newFileKind is the kind of the file a block's first save creates: the one
// the pipeline file declares ("kind: sql"), else the one asked for (?kind=),
// else Go. Asking for a kind the pipeline file contradicts is refused: the
// file would be written and never read.
func newFileKind(pl *project.Pipeline, b *project.Block, asked string) (string, error) {
	if asked != "" && asked != project.KindGo && asked != project.KindSQL {
		return "", badRequest("kind %q: want go or sql", asked)
	}
	switch {
	case b.Kind == "":
		if asked == "" {
			return project.KindGo, nil
		}
		return asked, nil
	case asked != "" && asked != b.Kind:
		return "", badRequest("block %s is declared kind: %s in %s (line %d), not %s: change the pipeline file first", b.ID, b.Kind, pl.File, b.Line, asked)
	}
	return b.Kind, nil
}

// unlistedBlockFile finds the file of a block its pipeline no longer lists
// because the pipeline file is broken (a YAML syntax error from an edit on
// disk): the editor keeps such cells, and their saves must still work.
func (s *Server) unlistedBlockFile(pipelineID, blockID string) (string, bool) {
	if project.ValidateBlockID(blockID) != nil {
		return "", false
	}
	pl, err := s.loadedPipeline(pipelineID)
	if err != nil || len(pl.Problems) == 0 {
		return "", false
	}
	var found []string
	for _, kind := range []string{project.KindGo, project.KindSQL} {
		f := defaultBlockFile(blockID, kind)
		if _, err := s.readFile(f); err == nil {
			found = append(found, f)
		}
	}
	if len(found) != 1 {
		return "", false
	}
	return found[0], true
}

// putUnlistedBlock saves such a block's file and answers 200 with the
// pipeline's problems: the file was written, the save did not fail.
func (s *Server) putUnlistedBlock(c echo.Context, file string) error {
	src, err := readText(c, "source")
	if err != nil {
		return err
	}
	s.files.Lock()
	defer s.files.Unlock()
	if err := s.checkIfMatch(c, file); err != nil {
		return err
	}
	if err := s.writeFile(file, []byte(src)); err != nil {
		return err
	}
	proj, err := s.reload()
	if err != nil {
		return err
	}
	pl := proj.Pipelines[c.Param("id")]
	kind := project.KindGo
	if strings.HasSuffix(file, ".sql") {
		kind = project.KindSQL
	}
	etag := etagOf([]byte(src))
	c.Response().Header().Set("ETag", etag)
	d := blockDetail{blockView: blockView{ID: c.Param("block"), File: file, Kind: kind, Upstream: []string{}}, Pipeline: pl.ID,
		Source: src, ETag: etag, Problems: problemsJSON(pl.Problems)}
	return c.JSON(http.StatusOK, d)
}

// createBlock: POST /pipelines/:id/blocks {"id", "kind", "upstream", "source"?, "before"?}.
// It writes the block file (a template when source is absent, unless the
// file already exists, which another pipeline may share) and adds the block
// to the pipeline file.
func (s *Server) createBlock(c echo.Context) error {
	pl, err := s.loadedPipeline(c.Param("id"))
	if err != nil {
		return err
	}
	var req struct {
		ID       string   `json:"id"`
		Kind     string   `json:"kind"`
		Upstream []string `json:"upstream"`
		Source   *string  `json:"source"`
		Before   string   `json:"before"` // the block it goes above in the file (the notebook's order); "" appends
	}
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if err := project.ValidateBlockID(req.ID); err != nil {
		return badRequest("%s", err.Error())
	}
	switch req.Kind {
	case "":
		req.Kind = project.KindGo
	case project.KindGo, project.KindSQL:
	default:
		return badRequest("kind %q: want go or sql", req.Kind)
	}
	for _, u := range req.Upstream {
		if err := project.ValidateBlockID(u); err != nil {
			return badRequest("upstream: %s", err.Error())
		}
		if pl.Block(u) == nil {
			return badRequest("upstream %q is not a block of pipeline %s", u, pl.ID)
		}
	}
	if pl.Block(req.ID) != nil {
		return conflict("pipeline %s already has a block %q", pl.ID, req.ID)
	}
	if req.Before != "" && pl.Block(req.Before) == nil {
		return badRequest("before: pipeline %s has no block %q", pl.ID, req.Before)
	}
	file := defaultBlockFile(req.ID, req.Kind)

	s.files.Lock()
	defer s.files.Unlock()
	ytext, err := s.readFile(pl.File)
	if err != nil {
		return err
	}
	edited, err := project.InsertBlock(ytext, req.ID, req.Upstream, req.Before)
	if err != nil {
		return apiErr(http.StatusUnprocessableEntity, CodeUnprocessable, "cannot add a block to %s: %s; fix the file first", pl.File, err)
	}
	_, statErr := s.readFile(file)
	exists := statErr == nil
	switch {
	case exists && req.Source != nil:
		return conflict("%s already exists: PUT /pipelines/%s/blocks/%s to change it after adding the block without source", file, pl.ID, req.ID)
	case !exists:
		src := blockTemplate(req.ID, req.Kind, req.Upstream)
		if req.Source != nil {
			src = *req.Source
		}
		if err := s.writeFile(file, []byte(src)); err != nil {
			return err
		}
	}
	if err := s.writeFile(pl.File, edited); err != nil {
		return err
	}
	if _, err := s.reload(); err != nil {
		return err
	}
	return s.blockResponse(c, http.StatusCreated, pl.ID, req.ID)
}

// deleteBlock removes a block from its pipeline and deletes its file, unless
// another pipeline still uses the file. A block others read is refused
// (409, naming them): removing it would break their parameter lists.
func (s *Server) deleteBlock(c echo.Context) error {
	pl, b, err := s.pipelineBlock(c.Param("id"), c.Param("block"))
	if err != nil {
		return err
	}
	var readers []string
	for _, d := range pl.Blocks {
		if d.ID != b.ID && slices.Contains(d.Upstream, b.ID) {
			readers = append(readers, d.ID)
		}
	}
	if len(readers) > 0 {
		e := conflict("block %s is upstream of %s: remove it from their upstream lists first", b.ID, strings.Join(readers, ", "))
		e.Details = map[string]any{"downstream": readers}
		return e
	}
	s.files.Lock()
	defer s.files.Unlock()
	ytext, err := s.readFile(pl.File)
	if err != nil {
		return err
	}
	edited, err := project.RemoveBlock(ytext, b.ID)
	if err != nil {
		return apiErr(http.StatusUnprocessableEntity, CodeUnprocessable, "cannot remove the block from %s: %s", pl.File, err)
	}
	if err := s.writeFile(pl.File, edited); err != nil {
		return err
	}
	if b.File != "" && !s.fileUsedElsewhere(pl.ID, b.File) {
		if err := s.removeFile(b.File); err != nil {
			return err
		}
		s.removeEmptyDir(path.Dir(b.File))
	}
	if _, err := s.reload(); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// fileUsedElsewhere reports whether a pipeline other than except uses file.
func (s *Server) fileUsedElsewhere(except, file string) bool {
	proj := s.eng.Project()
	for id, pl := range proj.Pipelines {
		if id == except {
			continue
		}
		for _, b := range pl.Blocks {
			if b.File == file {
				return true
			}
		}
	}
	return false
}

// removeEmptyDir removes a Go block's folder once its last file is gone.
func (s *Server) removeEmptyDir(rel string) {
	if rel == "blocks" || rel == "." || !strings.HasPrefix(rel, "blocks/") {
		return
	}
	p, err := project.SafeJoin(s.cfg.ProjectDir, rel)
	if err != nil {
		return
	}
	if ents, err := os.ReadDir(p); err == nil && len(ents) == 0 {
		_ = os.Remove(filepath.Clean(p))
	}
}

// blockTemplate is a new block's first source: a Load (no upstream) or a
// Transform taking one table per upstream, or a SQL SELECT.
func blockTemplate(id, kind string, upstream []string) string {
	if kind == project.KindSQL {
		if len(upstream) == 0 {
			return "-- " + id + ": DuckDB SQL. $partition_key, $partition_start and $partition_end are the partition's bounds.\n" +
				"SELECT $partition_key AS partition_key, $partition_start AS partition_start\n"
		}
		return "-- " + id + ": DuckDB SQL. Upstream outputs are relations named by block id: " + strings.Join(upstream, ", ") + ".\n" +
			"SELECT *\nFROM " + upstream[0] + "\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\nimport (\n\t\"github.com/stratahq/strata/blocks/sdk\"\n)\n\n", id)
	if len(upstream) == 0 {
		b.WriteString("// Load returns the block's rows for ctx.Partition.\n")
		b.WriteString("func Load(ctx *sdk.Context) (*sdk.Table, error) {\n")
		b.WriteString("\tt := sdk.NewTable(sdk.String(\"partition\"), sdk.Time(\"start\"))\n")
		b.WriteString("\tt.Append(ctx.Partition.Key, ctx.Partition.Start)\n")
		b.WriteString("\treturn t, nil\n}\n")
		return b.String()
	}
	params := make([]string, len(upstream))
	for i, u := range upstream {
		params[i] = u
		if u == "ctx" || u == "sdk" {
			params[i] = u + "_in"
		}
	}
	b.WriteString("// Transform receives its upstreams' outputs in the order the pipeline lists them.\n")
	fmt.Fprintf(&b, "func Transform(ctx *sdk.Context, %s *sdk.Table) (*sdk.Table, error) {\n", strings.Join(params, ", "))
	fmt.Fprintf(&b, "\treturn %s, nil\n}\n", params[0])
	return b.String()
}
