package server

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// Saves of a block or pipeline file carry the version they edited: GET
// answers with an ETag (a hash of the file's bytes, also in the body as
// "etag"), and a PUT with If-Match is refused with 412 when the file has
// changed since, so of two tabs editing one block the second save does not
// silently win. A PUT without If-Match still writes (scripts, curl).

// CodeChangedElsewhere is the 412 of a save whose If-Match is not the
// file's current version; details carry the current text and its etag.
const CodeChangedElsewhere = "changed_elsewhere"

// etagOf is the version of a file's content; a missing file is "".
func etagOf(data []byte) string {
	sum := sha256.Sum256(data)
	return `"` + hex.EncodeToString(sum[:8]) + `"`
}

// checkIfMatch compares the request's If-Match with file's current content.
// Call it holding s.files, right before the write.
func (s *Server) checkIfMatch(c echo.Context, file string) error {
	want := strings.TrimSpace(c.Request().Header.Get("If-Match"))
	if want == "" || want == "*" {
		return nil
	}
	cur, err := s.readFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	have := ""
	if err == nil {
		have = etagOf(cur)
	}
	if strings.TrimPrefix(want, "W/") == have {
		return nil
	}
	e := apiErr(http.StatusPreconditionFailed, CodeChangedElsewhere,
		"%s changed elsewhere since you opened it (your version %s, now %s); nothing was written: reload it or overwrite", file, want, orNone(have))
	e.Details = map[string]any{"file": file, "etag": have, "current": string(cur)}
	return e
}

func orNone(etag string) string {
	if etag == "" {
		return "deleted"
	}
	return etag
}
