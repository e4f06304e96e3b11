package server

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
)

func (s *Server) pipelineRoutes(g *echo.Group) {
	g.GET("/pipelines", s.listPipelines)
	g.POST("/pipelines", s.createPipeline)
	g.GET("/pipelines/:id", s.getPipeline)
	g.PUT("/pipelines/:id", s.putPipeline)
	g.DELETE("/pipelines/:id", s.deletePipeline)
	g.GET("/pipelines/:id/key-sets/:dim", s.keySets)
}

// keySets: GET /pipelines/:id/key-sets/:dim, the recorded versions of a
// dynamic dimension's key set, newest first, each with the keys it added
// and removed.
func (s *Server) keySets(c echo.Context) error {
	pl, err := s.eng.Pipeline(c.Param("id"))
	if err != nil {
		return err
	}
	dim := c.Param("dim")
	var names []string
	found := false
	for _, d := range pl.Partitions.Dims {
		if d.Dynamic() {
			names = append(names, d.Name)
			found = found || d.Name == dim
		}
	}
	if !found {
		if len(names) == 0 {
			return echo.NewHTTPError(http.StatusNotFound, fmt.Sprintf("pipeline %s has no dynamic dimension", pl.ID))
		}
		return echo.NewHTTPError(http.StatusNotFound, fmt.Sprintf("pipeline %s has no dynamic dimension %q (dynamic: %s)", pl.ID, dim, strings.Join(names, ", ")))
	}
	sets, err := s.eng.KeySets(c.Request().Context(), pl.ID, dim)
	if err != nil {
		return err
	}
	if sets == nil {
		sets = []*engine.KeySet{}
	}
	return c.JSON(http.StatusOK, map[string]any{"pipeline": pl.ID, "dimension": dim, "versions": sets})
}

// pipelineSummary is one entry of GET /pipelines.
type pipelineSummary struct {
	ID          string         `json:"id"`
	File        string         `json:"file"`
	Description string         `json:"description"`
	Partitions  partitionsView `json:"partitions"`
	Blocks      int            `json:"blocks"`
	Problems    int            `json:"problems"`
	Runnable    bool           `json:"runnable"`
}

// pipelineView is a pipeline as the editor needs it: the file's text and
// what the loader made of it.
type pipelineView struct {
	ID          string            `json:"id"`
	File        string            `json:"file"`
	YAML        string            `json:"yaml"`
	ETag        string            `json:"etag"` // the file's version, for If-Match on save
	Description string            `json:"description"`
	EndNote     string            `json:"end_note,omitempty"` // markdown shown after the last block
	Partitions  partitionsView    `json:"partitions"`
	Variables   map[string]string `json:"variables"`
	Concurrency int               `json:"concurrency"`
	Retries     retriesView       `json:"retries"`
	Timeout     string            `json:"timeout"`
	Blocks      []blockView       `json:"blocks"`
	Order       []string          `json:"order"` // every block after its upstreams
	Edges       []edgeView        `json:"edges"`
	Problems    []project.Problem `json:"problems"`
	Runnable    bool              `json:"runnable"` // no problems: runs and backfills are allowed
}

type partitionsView struct {
	Interval  string `json:"interval"`
	Timezone  string `json:"timezone"`
	Start     string `json:"start,omitempty"`
	WeekStart string `json:"week_start"`
	// Dims are the value dimensions beside time, in key order; TimePos
	// is where the time part sits among a key's parts.
	Dims    []dimView `json:"dims,omitempty"`
	TimePos int       `json:"time_pos,omitempty"`
}

// dimView is one value dimension: static with its values, or dynamic with
// the product column its key set is read from.
type dimView struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"` // static or dynamic
	Values  []string `json:"values,omitempty"`
	Product string   `json:"product,omitempty"`
	Column  string   `json:"column,omitempty"`
}

type retriesView struct {
	Attempts   int    `json:"attempts"`
	Backoff    string `json:"backoff"`
	MaxBackoff string `json:"max_backoff"`
}

type edgeView struct {
	From string `json:"from"`
	To   string `json:"to"`
}

func partitionsOf(c project.PartitionConfig) partitionsView {
	v := partitionsView{Interval: c.Interval, Timezone: c.Timezone, Start: c.Start, WeekStart: c.WeekStart, TimePos: c.TimePos}
	for _, d := range c.Dims {
		dv := dimView{Name: d.Name, Kind: "static", Values: d.Values}
		if d.Dynamic() {
			dv = dimView{Name: d.Name, Kind: "dynamic", Product: d.Product, Column: d.Column}
		}
		v.Dims = append(v.Dims, dv)
	}
	return v
}

func retriesOf(r project.RetryPolicy) retriesView {
	return retriesView{Attempts: r.Attempts, Backoff: r.Backoff.String(), MaxBackoff: r.MaxBackoff.String()}
}

func newPipelineView(pl *project.Pipeline, yamlText string) pipelineView {
	v := pipelineView{
		ID: pl.ID, File: pl.File, YAML: yamlText, Description: pl.Description, EndNote: pl.EndNote,
		Partitions: partitionsOf(pl.Partitions), Variables: pl.Variables, Concurrency: pl.Concurrency,
		Retries: retriesOf(pl.Retries), Timeout: pl.Timeout.String(),
		Blocks: []blockView{}, Order: []string{}, Edges: []edgeView{},
		Problems: problemsJSON(pl.Problems), Runnable: len(pl.Problems) == 0,
	}
	if v.Variables == nil {
		v.Variables = map[string]string{}
	}
	for _, b := range pl.Blocks {
		v.Blocks = append(v.Blocks, newBlockView(pl, b))
		for _, u := range pl.Upstream(b.ID) {
			v.Edges = append(v.Edges, edgeView{From: u.ID, To: b.ID})
		}
	}
	for _, b := range pl.Order() {
		v.Order = append(v.Order, b.ID)
	}
	return v
}

func (s *Server) listPipelines(c echo.Context) error {
	proj := s.eng.Project()
	out := struct {
		Pipelines []pipelineSummary `json:"pipelines"`
		Problems  []project.Problem `json:"problems"` // the whole project's, strata.yaml included
	}{Pipelines: []pipelineSummary{}, Problems: problemsJSON(proj.Problems)}
	for _, id := range proj.PipelineIDs() {
		pl := proj.Pipelines[id]
		out.Pipelines = append(out.Pipelines, pipelineSummary{
			ID: pl.ID, File: pl.File, Description: pl.Description, Partitions: partitionsOf(pl.Partitions),
			Blocks: len(pl.Blocks), Problems: len(pl.Problems), Runnable: len(pl.Problems) == 0,
		})
	}
	return c.JSON(http.StatusOK, out)
}

// pipelineFile is where a pipeline id lives, after checking the id.
func pipelineFile(id string) (string, error) {
	if err := project.ValidatePipelineID(id); err != nil {
		return "", badRequest("%s", err.Error())
	}
	return project.PipelinesDir + "/" + id + ".yaml", nil
}

// loadedPipeline returns a pipeline of the current project, problems and all.
func (s *Server) loadedPipeline(id string) (*project.Pipeline, error) {
	if _, err := pipelineFile(id); err != nil {
		return nil, err
	}
	proj := s.eng.Project()
	pl := proj.Pipelines[id]
	if pl == nil {
		return nil, notFound("pipeline %q not found (pipelines: %v)", id, proj.PipelineIDs())
	}
	return pl, nil
}

// pipelineResponse reads the file and renders the view.
func (s *Server) pipelineResponse(c echo.Context, status int, proj *project.Project, id string) error {
	file, _ := pipelineFile(id)
	text, err := s.readFile(file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return notFound("pipeline %q not found", id)
		}
		return err
	}
	etag := etagOf(text)
	c.Response().Header().Set("ETag", etag)
	pl := proj.Pipelines[id]
	if pl == nil {
		// The file exists but could not be loaded at all: show the text and why.
		v := pipelineView{ID: id, File: file, YAML: string(text), ETag: etag, Blocks: []blockView{}, Order: []string{},
			Edges: []edgeView{}, Variables: map[string]string{}, Problems: problemsJSON(proj.Problems.ForFile(file))}
		return c.JSON(status, v)
	}
	v := newPipelineView(pl, string(text))
	v.ETag = etag
	return c.JSON(status, v)
}

func (s *Server) getPipeline(c echo.Context) error {
	id := c.Param("id")
	if _, err := pipelineFile(id); err != nil {
		return err
	}
	return s.pipelineResponse(c, http.StatusOK, s.eng.Project(), id)
}

// createPipeline: POST /pipelines {"id", "yaml"?} or, from the "New
// pipeline" form, {"id", "description"?, "partitions"?: {"interval",
// "timezone", "start"}, "block"?: {"id", "kind"}}. Without either the file
// starts as a daily pipeline in the project's zone with no blocks.
func (s *Server) createPipeline(c echo.Context) error {
	var req struct {
		ID   string  `json:"id"`
		YAML *string `json:"yaml"`
		newPipelineForm
	}
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	file, err := pipelineFile(req.ID)
	if err != nil {
		return err
	}
	var text []byte
	var blockFile, blockSrc string
	if req.YAML != nil {
		if req.Partitions != nil || req.Block != nil || req.Description != "" {
			return badRequest("send either yaml or the form's description, partitions and block, not both")
		}
		text = []byte(*req.YAML)
	} else if text, blockFile, blockSrc, err = s.newPipelineText(req.newPipelineForm); err != nil {
		return err
	}
	if probs := yamlSyntax(file, text); len(probs) > 0 {
		return invalidYAML(file, probs)
	}
	if err := yamlMapping(file, string(text)); err != nil {
		return err
	}
	s.files.Lock()
	defer s.files.Unlock()
	if _, err := s.readFile(file); err == nil {
		return conflict("pipeline %q already exists (%s)", req.ID, file)
	}
	// A first block whose file exists already (another pipeline's) is shared, not overwritten.
	if blockFile != "" {
		if _, err := s.readFile(blockFile); errors.Is(err, fs.ErrNotExist) {
			if err := s.writeFile(blockFile, []byte(blockSrc)); err != nil {
				return err
			}
		}
	}
	if err := s.writeFile(file, text); err != nil {
		return err
	}
	proj, err := s.reload()
	if err != nil {
		return err
	}
	return s.pipelineResponse(c, http.StatusCreated, proj, req.ID)
}

// putPipeline saves a pipeline file: 422 and nothing written when the text
// does not parse as YAML; otherwise saved, with any problems in the answer
// (an editor must be able to save work in progress). Creates the file when
// it does not exist (201).
func (s *Server) putPipeline(c echo.Context) error {
	id := c.Param("id")
	file, err := pipelineFile(id)
	if err != nil {
		return err
	}
	text, err := readText(c, "yaml")
	if err != nil {
		return err
	}
	if probs := yamlSyntax(file, []byte(text)); len(probs) > 0 {
		return invalidYAML(file, probs)
	}
	if err := yamlMapping(file, string(text)); err != nil {
		return err
	}
	s.files.Lock()
	defer s.files.Unlock()
	status := http.StatusOK
	if _, err := s.readFile(file); errors.Is(err, fs.ErrNotExist) {
		status = http.StatusCreated
	}
	if err := s.checkIfMatch(c, file); err != nil {
		return err
	}
	if err := s.writeFile(file, []byte(text)); err != nil {
		return err
	}
	proj, err := s.reload()
	if err != nil {
		return err
	}
	return s.pipelineResponse(c, status, proj, id)
}

// deletePipeline removes the pipeline file. Block files stay unless
// ?blocks=true, which also removes those no other pipeline uses
// (GET /pipelines/:id/delete-plan lists them first).
func (s *Server) deletePipeline(c echo.Context) error {
	id := c.Param("id")
	file, err := pipelineFile(id)
	if err != nil {
		return err
	}
	s.files.Lock()
	defer s.files.Unlock()
	if _, err := s.readFile(file); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return notFound("pipeline %q not found", id)
		}
		return err
	}
	removes := []string{file}
	if pl := s.eng.Project().Pipelines[id]; pl != nil && c.QueryParam("blocks") == "true" {
		removes = s.planPipelineDelete(pl, true).Removes
	}
	for _, f := range removes {
		if err := s.removeFile(f); err != nil {
			return err
		}
		if f != file {
			s.removeEmptyDir(path.Dir(f))
		}
	}
	if _, err := s.reload(); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// runnablePipeline returns a pipeline that may run: 404 when unknown, 422
// with its problems when it has any.
func (s *Server) runnablePipeline(id string) (*project.Pipeline, error) {
	pl, err := s.loadedPipeline(id)
	if err != nil {
		return nil, err
	}
	if len(pl.Problems) > 0 {
		return nil, invalidPipeline(id, pl.Problems)
	}
	return pl, nil
}

// productOwner finds the pipeline and block that write a product.
func (s *Server) productOwner(name string) (*project.Pipeline, *project.Block) {
	proj := s.eng.Project()
	if pl, b := proj.Product(name); b != nil {
		return pl, b // a global product's owner, when two declare it
	}
	for _, id := range proj.PipelineIDs() {
		pl := proj.Pipelines[id]
		for _, b := range pl.Blocks {
			if engine.ProductName(pl, b) == name {
				return pl, b
			}
		}
	}
	return nil, nil
}
