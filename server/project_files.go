package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/labstack/echo/v4"
	"gopkg.in/yaml.v3"

	"github.com/stratahq/strata/projects/project"
)

// The API edits the project's files, which stay the source of truth: every
// write goes to disk first, then the project is reloaded with project.Load
// and swapped into the engine. s.files serializes write-and-reload, so two
// saves never interleave and a reader never sees a half-written file (writes
// go to a temporary file renamed over the old one).

// writeFile writes data to rel inside the project, atomically.
func (s *Server) writeFile(rel string, data []byte) error {
	p, err := project.SafeJoin(s.cfg.ProjectDir, rel)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".*.tmp")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// readFile reads rel inside the project.
func (s *Server) readFile(rel string) ([]byte, error) {
	p, err := project.SafeJoin(s.cfg.ProjectDir, rel)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}

// removeFile deletes rel inside the project; a missing file is not an error.
func (s *Server) removeFile(rel string) error {
	p, err := project.SafeJoin(s.cfg.ProjectDir, rel)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// reload loads the project from disk and hands it to the engine. Problems
// do not fail a reload: a project with a broken pipeline is still a project.
func (s *Server) reload() (*project.Project, error) {
	proj, err := project.Load(s.cfg.ProjectDir)
	if proj == nil {
		return nil, fmt.Errorf("reload project: %w", err)
	}
	s.eng.SetProject(proj)
	return proj, nil
}

// filesChanged runs when files of the project changed on disk (the
// server's own saves included): the engine gets the reloaded project and
// every open page hears which files changed, to refresh what it shows. A
// page never replaces a cell's unsaved text (the cell says the file
// changed; its save then meets If-Match).
func (s *Server) filesChanged(paths []string) {
	s.files.Lock()
	_, err := s.reload()
	s.files.Unlock()
	if err != nil {
		s.log.Warn("reload the project after a change on disk", "files", paths, "err", err)
		return
	}
	s.log.Debug("project reloaded after a change on disk", "files", paths)
	s.hub.broadcast(ProjectMessage(paths))
}

// yamlSyntax reports what keeps data from parsing as YAML at all: the only
// problems that stop a save. Everything else (an unknown field, a bad
// interval, a missing block file) is saved and reported, so an editor can
// keep work in progress.
//
// yaml.v3 decides whether the text parses; where the error is, the project
// loader knows best (yaml.v3 reports some lines 0-based, some 1-based), so
// the text is loaded as the only pipeline of a scratch project and the
// loader's syntax problem is returned. (An exported project.CheckYAML would
// save the scratch folder.)
func yamlSyntax(file string, data []byte) project.Problems {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var perr error
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			perr = err
			break
		}
	}
	fallback := project.Problems{{File: file, Message: "YAML syntax error: " + strings.TrimPrefix(perr.Error(), "yaml: ")}}
	scratch, err := os.MkdirTemp("", "strata-yaml-")
	if err != nil {
		return fallback
	}
	defer os.RemoveAll(scratch)
	if os.WriteFile(filepath.Join(scratch, project.ProjectFile), []byte("name: scratch\n"), 0o644) != nil ||
		os.MkdirAll(filepath.Join(scratch, filepath.FromSlash(path.Dir(file))), 0o755) != nil ||
		os.WriteFile(filepath.Join(scratch, filepath.FromSlash(file)), data, 0o644) != nil {
		return fallback
	}
	proj, _ := project.Load(scratch)
	if proj == nil {
		return fallback
	}
	var out project.Problems
	for _, p := range proj.Problems.ForFile(file) {
		if strings.HasPrefix(p.Message, "YAML syntax error") {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return fallback
	}
	return out
}

func invalidYAML(file string, probs project.Problems) *APIError {
	e := apiErr(http.StatusUnprocessableEntity, CodeInvalidYAML, "%s does not parse as YAML; nothing was written", file)
	e.Details = problemsJSON(probs)
	return e
}

// readText reads a text body: the raw body (text/plain, application/yaml,
// text/x-go, ...) or, when the request is JSON, the named string field of
// an object such as {"yaml": "..."}.
func readText(c echo.Context, field string) (string, error) {
	r := c.Request()
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		var m map[string]string
		if err := decodeJSON(c, &m); err != nil {
			return "", err
		}
		for k := range m {
			if k != field {
				return "", badRequest("unknown field %q: want {%q: \"...\"}", k, field)
			}
		}
		v, ok := m[field]
		if !ok {
			return "", badRequest("missing field %q", field)
		}
		return v, nil
	}
	b, err := io.ReadAll(r.Body)
	if err != nil {
		return "", err
	}
	if jsonEnvelope(b, field) {
		// The JSON form sent without its content type used to be saved as
		// the file's text: strata.yaml overwritten with {"yaml": "..."},
		// which YAML reads as a mapping, so nothing looked wrong.
		ct := r.Header.Get("Content-Type")
		if ct == "" {
			ct = "none"
		}
		return "", badRequest("the body is the JSON form {%q: \"...\"} but its Content-Type is %s, not application/json; nothing was written: send it as application/json, or send the file's text itself", field, ct)
	}
	return string(b), nil
}

// jsonEnvelope reports whether body is a JSON object holding field, the
// JSON form of readText's request.
func jsonEnvelope(body []byte, field string) bool {
	t := bytes.TrimSpace(body)
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(t, &m) != nil {
		return false
	}
	_, ok := m[field]
	return ok
}

// yamlMapping refuses text that does not parse as the YAML file it would
// replace: a project or pipeline file is a mapping of settings (or empty).
// A syntax error is left to yamlSyntax, which places it.
func yamlMapping(file, text string) error {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(text), &n); err != nil || len(n.Content) == 0 {
		return nil
	}
	if root := n.Content[0]; root.Kind != yaml.MappingNode {
		kind := map[yaml.Kind]string{yaml.SequenceNode: "a list", yaml.ScalarNode: "a single value", yaml.AliasNode: "an alias"}[root.Kind]
		return badRequest("%s must be a mapping of settings (name: value lines), got %s at line %d; nothing was written", file, kind, root.Line)
	}
	return nil
}
