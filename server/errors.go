package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/notebook"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/tableview"
	"github.com/stratahq/strata/projects/warehouse"
)

// Error codes of the API. Every failure, from a bad partition key to an
// unknown route, answers {"error": {"code", "message", "details"}} with one
// of these codes, so a client switches on the code, not on the message.
const (
	CodeBadRequest       = "bad_request"        // 400: malformed JSON, a bad id, a bad partition key
	CodeBadPath          = "bad_path"           // 400: a path with ".." in it
	CodeUnauthorized     = "unauthorized"       // 401: no token or a wrong one
	CodeForbidden        = "forbidden"          // 403: a websocket from another origin, a foreign Host with --no-auth
	CodeNotFound         = "not_found"          // 404: no such pipeline, block, run, product or route
	CodeMethodNotAllowed = "method_not_allowed" // 405
	CodeConflict         = "conflict"           // 409: it already exists, or other things depend on it
	CodeReviewConflict   = "review_conflict"    // 409: a review backfill's promote or rollback met newer versions (details: conflicts, resolve)
	CodeTooLarge         = "payload_too_large"  // 413
	CodeInvalidYAML      = "invalid_yaml"       // 422: the file does not parse as YAML; nothing was written
	CodeInvalidPipeline  = "invalid_pipeline"   // 422: the pipeline has problems and cannot run
	CodeUnprocessable    = "unprocessable"      // 422: well-formed but not acceptable
	CodeInternal         = "internal"           // 500
	CodeUnavailable      = "unavailable"        // 503: shutting down, or the warehouse file changed under the server
)

// APIError is a failure with its HTTP status and the body's fields.
type APIError struct {
	Status  int    `json:"-"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Details any    `json:"details,omitempty"`
}

func (e *APIError) Error() string { return e.Code + ": " + e.Message }

// errorBody is the JSON shape of every error response.
type errorBody struct {
	Error *APIError `json:"error"`
}

func apiErr(status int, code, format string, args ...any) *APIError {
	return &APIError{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) *APIError {
	return apiErr(http.StatusBadRequest, CodeBadRequest, format, args...)
}

func notFound(format string, args ...any) *APIError {
	return apiErr(http.StatusNotFound, CodeNotFound, format, args...)
}

func conflict(format string, args ...any) *APIError {
	return apiErr(http.StatusConflict, CodeConflict, format, args...)
}

// invalidPipeline is a pipeline whose problems keep it from running.
func invalidPipeline(id string, probs project.Problems) *APIError {
	e := apiErr(http.StatusUnprocessableEntity, CodeInvalidPipeline, "pipeline %s has %d problem(s); fix them before running it", id, len(probs))
	e.Details = problemsJSON(probs)
	return e
}

// problemsJSON never returns nil, so clients always see a list.
func problemsJSON(ps project.Problems) []project.Problem {
	if ps == nil {
		return []project.Problem{}
	}
	return ps
}

// toAPIError classifies any error a handler returns.
func toAPIError(err error) *APIError {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		if inner, ok := he.Internal.(*echo.HTTPError); ok {
			he = inner
		}
		msg := http.StatusText(he.Code)
		if s, ok := he.Message.(string); ok && s != "" {
			msg = s
		}
		return &APIError{Status: he.Code, Code: codeForStatus(he.Code), Message: msg}
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return apiErr(http.StatusRequestEntityTooLarge, CodeTooLarge, "request body is larger than %d bytes", mbe.Limit)
	}
	var probs project.Problems
	if errors.As(err, &probs) {
		e := apiErr(http.StatusUnprocessableEntity, CodeUnprocessable, "%d problem(s)", len(probs))
		e.Details = problemsJSON(probs)
		return e
	}
	var ns *engine.NotStartedError
	if errors.As(err, &ns) {
		e := badRequest("%s", err.Error())
		e.Details = ns
		return e
	}
	var nf *engine.NotFoundError
	if errors.As(err, &nf) || errors.Is(err, warehouse.ErrNotFound) {
		return notFound("%s", err.Error())
	}
	if errors.Is(err, tableview.ErrBadQuery) {
		return badRequest("%s", err.Error())
	}
	if errors.Is(err, notebook.ErrNoDraft) {
		return notFound("%s", err.Error())
	}
	if errors.Is(err, project.ErrUnsafePath) {
		return apiErr(http.StatusBadRequest, CodeBadPath, "%s", err.Error())
	}
	if errors.Is(err, warehouse.ErrFileChanged) {
		return apiErr(http.StatusServiceUnavailable, CodeUnavailable, "%s", err.Error())
	}
	if errors.Is(err, context.Canceled) {
		return apiErr(http.StatusServiceUnavailable, CodeUnavailable, "cancelled: the server is shutting down or the client went away")
	}
	return apiErr(http.StatusInternalServerError, CodeInternal, "%s", err.Error())
}

func codeForStatus(status int) string {
	switch status {
	case http.StatusBadRequest:
		return CodeBadRequest
	case http.StatusUnauthorized:
		return CodeUnauthorized
	case http.StatusForbidden:
		return CodeForbidden
	case http.StatusNotFound:
		return CodeNotFound
	case http.StatusMethodNotAllowed:
		return CodeMethodNotAllowed
	case http.StatusConflict:
		return CodeConflict
	case http.StatusRequestEntityTooLarge:
		return CodeTooLarge
	case http.StatusUnprocessableEntity:
		return CodeUnprocessable
	case http.StatusServiceUnavailable:
		return CodeUnavailable
	}
	if status >= 500 {
		return CodeInternal
	}
	return strings.ReplaceAll(strings.ToLower(http.StatusText(status)), " ", "_")
}

// errorHandler is echo's HTTPErrorHandler: the one place errors become
// responses, for handlers, middleware and the router's 404 and 405 alike.
func (s *Server) errorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	ae := toAPIError(err)
	if ae.Status == http.StatusNotFound && ae.Message == http.StatusText(http.StatusNotFound) {
		ae.Message = fmt.Sprintf("no route %s %s", c.Request().Method, c.Request().URL.Path)
	}
	if ae.Status == http.StatusMethodNotAllowed {
		ae.Message = fmt.Sprintf("%s is not allowed on %s", c.Request().Method, c.Request().URL.Path)
	}
	if ae.Status >= 500 {
		s.log.ErrorContext(c.Request().Context(), "request failed", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
	}
	writeError(c.Response(), c.Request(), ae)
}

// writeError writes the error body directly, for code outside echo's chain.
func writeError(w http.ResponseWriter, r *http.Request, ae *APIError) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	if ae.Status == http.StatusRequestEntityTooLarge {
		// The rest of the body is not read; ask the client to stop sending.
		h.Set("Connection", "close")
	}
	w.WriteHeader(ae.Status)
	if r != nil && r.Method == http.MethodHead {
		return
	}
	_ = json.NewEncoder(w).Encode(errorBody{ae})
}

// decodeJSON reads a JSON request body into v, refusing unknown fields (a
// typo in a field name should fail loudly, not be ignored) and trailing data.
// An empty body leaves v as it is.
func decodeJSON(c echo.Context, v any) error {
	dec := json.NewDecoder(c.Request().Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil
		}
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		return badRequest("request body is not the expected JSON: %s", err.Error())
	}
	if dec.More() {
		return badRequest("request body holds more than one JSON value")
	}
	return nil
}
