package server

import (
	"errors"
	"io/fs"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/project"
)

// The YAML editor cells: strata.yaml through /project/settings (the
// pipeline file goes through PUT /pipelines/:id), and /project/check for
// diagnostics of unsaved text, which are project.CheckText's, the loader's.

func (s *Server) projectRoutes(g *echo.Group) {
	g.GET("/project/settings", s.getSettings)
	g.PUT("/project/settings", s.putSettings)
	g.POST("/project/check", s.checkText)
}

// settingsView is strata.yaml as the editor needs it.
type settingsView struct {
	File     string            `json:"file"`
	YAML     string            `json:"yaml"`
	ETag     string            `json:"etag"`
	Problems []project.Problem `json:"problems"`
}

func (s *Server) settingsResponse(c echo.Context, proj *project.Project) error {
	data, err := s.readFile(project.ProjectFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	c.Response().Header().Set("ETag", etagOf(data))
	return c.JSON(http.StatusOK, settingsView{File: project.ProjectFile, YAML: string(data), ETag: etagOf(data),
		Problems: problemsJSON(proj.Problems.ForFile(project.ProjectFile))})
}

// getSettings: GET /project/settings.
func (s *Server) getSettings(c echo.Context) error {
	return s.settingsResponse(c, s.eng.Project())
}

// putSettings: PUT /project/settings {"yaml"} with If-Match. Text that does
// not parse as YAML, or not as a mapping of settings, and the JSON form sent
// without its content type are refused (nothing written); other problems
// are saved and reported, as for a pipeline file.
func (s *Server) putSettings(c echo.Context) error {
	text, err := readText(c, "yaml")
	if err != nil {
		return err
	}
	if err := yamlMapping(project.ProjectFile, text); err != nil {
		return err
	}
	probs, err := project.CheckText(s.eng.Project(), project.ProjectFile, []byte(text))
	if err != nil {
		return err
	}
	if syn := syntaxOnly(probs); len(syn) > 0 {
		return invalidYAML(project.ProjectFile, syn)
	}
	s.files.Lock()
	defer s.files.Unlock()
	if err := s.checkIfMatch(c, project.ProjectFile); err != nil {
		return err
	}
	if err := s.writeFile(project.ProjectFile, []byte(text)); err != nil {
		return err
	}
	proj, err := s.reload()
	if err != nil {
		return err
	}
	return s.settingsResponse(c, proj)
}

// checkText: POST /project/check {"file", "yaml"} answers {"problems"}: what
// saving that text would report, without writing it.
func (s *Server) checkText(c echo.Context) error {
	var req struct {
		File string `json:"file"`
		YAML string `json:"yaml"`
	}
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	probs, err := project.CheckText(s.eng.Project(), req.File, []byte(req.YAML))
	if err != nil {
		return badRequest("%s", err.Error())
	}
	return c.JSON(http.StatusOK, map[string]any{"file": req.File, "problems": problemsJSON(probs)})
}

func syntaxOnly(ps project.Problems) project.Problems {
	var out project.Problems
	for _, p := range ps {
		if strings.HasPrefix(p.Message, "YAML syntax error") {
			out = append(out, p)
		}
	}
	return out
}
