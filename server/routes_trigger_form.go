package server

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/triggers"
)

// The trigger form of the pipeline page. The pipeline file stays the source
// of truth: a form save is file surgery on it (project.SetTrigger), sent
// with the If-Match of the file the form was filled from, so a save over
// an edit made elsewhere is the YAML cell's 412 with the text on disk.
// Values the loader would report against the trigger are a 400 naming the
// field, and nothing is written.

func (s *Server) triggerFormRoutes(g *echo.Group) {
	g.GET("/triggers/schedule-preview", s.schedulePreview)
	g.POST("/pipelines/:id/triggers", s.createTrigger)
	g.PUT("/pipelines/:id/triggers/:trigger", s.putTrigger)
	g.DELETE("/pipelines/:id/triggers/:trigger", s.deleteTrigger)
}

// schedulePreview: GET /triggers/schedule-preview?cron=&timezone=&n=5 reads
// a cron expression as typed: in words and its next n ticks in the zone.
func (s *Server) schedulePreview(c echo.Context) error {
	n, err := intParam(c, "n", 5, 1, 100)
	if err != nil {
		return err
	}
	p, err := triggers.PreviewSchedule(c.QueryParam("cron"), c.QueryParam("timezone"), s.triggers.Clock().Now(), n)
	if err != nil {
		return badRequest("%s", err.Error())
	}
	return c.JSON(http.StatusOK, p)
}

// createTrigger: POST /pipelines/:id/triggers with a project.TriggerForm
// appends the trigger to the pipeline file.
func (s *Server) createTrigger(c echo.Context) error {
	return s.saveTriggerForm(c, "")
}

// putTrigger: PUT /pipelines/:id/triggers/:trigger with a project.TriggerForm
// rewrites that trigger in place (its id may change).
func (s *Server) putTrigger(c echo.Context) error {
	return s.saveTriggerForm(c, c.Param("trigger"))
}

func (s *Server) saveTriggerForm(c echo.Context, old string) error {
	pl, err := s.loadedPipeline(c.Param("id"))
	if err != nil {
		return err
	}
	if old != "" && pl.Trigger(old) == nil {
		return notFound("pipeline %s has no trigger %q", pl.ID, old)
	}
	var f project.TriggerForm
	if err := decodeJSON(c, &f); err != nil {
		return err
	}
	f.ID, f.Cron, f.Timezone, f.Product, f.Run, f.Changes = strings.TrimSpace(f.ID), strings.TrimSpace(f.Cron), strings.TrimSpace(f.Timezone), strings.TrimSpace(f.Product), strings.TrimSpace(f.Run), strings.TrimSpace(f.Changes)
	if err := s.checkTriggerForm(pl, old, f); err != nil {
		return err
	}
	return s.editTriggers(c, pl, f.ID, func(y []byte) ([]byte, error) { return project.SetTrigger(y, old, f) })
}

// checkTriggerForm refuses what the file could not say: a missing id, an
// id another trigger has, an unknown kind, an event on a product nobody
// writes. The rest (cron, zone, run) is the loader's, checked on the text.
func (s *Server) checkTriggerForm(pl *project.Pipeline, old string, f project.TriggerForm) error {
	if f.ID == "" {
		return badRequest("id: every trigger needs one, such as \"nightly\"")
	}
	if f.ID != old && pl.Trigger(f.ID) != nil {
		return conflict("id: pipeline %s already has a trigger %q", pl.ID, f.ID)
	}
	switch f.Kind {
	case project.TriggerSchedule:
		if f.Cron == "" {
			return badRequest("cron: want five fields (minute hour day-of-month month day-of-week) such as \"30 2 * * *\"")
		}
	case project.TriggerEvent:
		if f.Product == "" {
			return badRequest("product: name the product whose new versions fire this trigger")
		}
		if owner, _ := s.productOwner(f.Product); owner == nil {
			return badRequest("product: no pipeline writes a product %q", f.Product)
		}
		if f.Changes != "" && f.Changes != project.ChangesNewVersion && f.Changes != project.ChangesNewKey {
			return badRequest("changes %q: want %s or %s", f.Changes, project.ChangesNewVersion, project.ChangesNewKey)
		}
	case project.TriggerAPI:
	default:
		return badRequest("kind %q: want schedule, event or api", f.Kind)
	}
	return nil
}

// deleteTrigger: DELETE /pipelines/:id/triggers/:trigger removes it from the
// pipeline file (its firing history stays in the warehouse).
func (s *Server) deleteTrigger(c echo.Context) error {
	pl, err := s.loadedPipeline(c.Param("id"))
	if err != nil {
		return err
	}
	id := c.Param("trigger")
	if pl.Trigger(id) == nil {
		return notFound("pipeline %s has no trigger %q", pl.ID, id)
	}
	return s.editTriggers(c, pl, "", func(y []byte) ([]byte, error) { return project.RemoveTrigger(y, id) })
}

// editTriggers applies edit to the pipeline file under If-Match, refuses a
// result the loader faults at trigger id, writes it and answers with the
// pipeline (its new text and ETag for the YAML cell).
func (s *Server) editTriggers(c echo.Context, pl *project.Pipeline, id string, edit func([]byte) ([]byte, error)) error {
	s.files.Lock()
	defer s.files.Unlock()
	if err := s.checkIfMatch(c, pl.File); err != nil {
		return err
	}
	y, err := s.readFile(pl.File)
	if err != nil {
		return err
	}
	out, err := edit(y)
	if err != nil {
		return apiErr(http.StatusUnprocessableEntity, CodeUnprocessable, "cannot edit %s: %s; fix the file first", pl.File, err)
	}
	if id != "" {
		probs, err := project.CheckText(s.eng.Project(), pl.File, out)
		if err != nil {
			return err
		}
		prefix := fmt.Sprintf("triggers[%d]", project.TriggerIndex(out, id))
		var mine project.Problems
		for _, p := range probs {
			if p.Field == prefix || strings.HasPrefix(p.Field, prefix+".") {
				mine = append(mine, p)
			}
		}
		if len(mine) > 0 {
			msgs := make([]string, len(mine))
			for i, p := range mine {
				msgs[i] = strings.TrimPrefix(strings.TrimPrefix(p.Field, prefix), ".") + ": " + p.Message
			}
			e := badRequest("trigger %s: %s; nothing was written", id, strings.Join(msgs, "; "))
			e.Details = problemsJSON(mine)
			return e
		}
	}
	if err := s.writeFile(pl.File, out); err != nil {
		return err
	}
	proj, err := s.reload()
	if err != nil {
		return err
	}
	return s.pipelineResponse(c, http.StatusOK, proj, pl.ID)
}
