package server

import (
	"errors"
	"html"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v4"
)

// serveStatic serves the built frontend from Config.UI, and only from it:
// names are cleaned and checked with fs.ValidPath, so nothing outside the FS
// can be named, and directories are never listed. A path that names no file
// and has no extension is a client-side route of the single-page app and gets
// index.html; a missing asset is a 404.
func (s *Server) serveStatic(c echo.Context) error {
	r := c.Request()
	if isAPIPath(r.URL.Path) {
		return echo.ErrNotFound
	}
	if s.cfg.UI == nil {
		return c.HTML(http.StatusOK, strings.ReplaceAll(notBuiltPage, "HOST", html.EscapeString(r.Host)))
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" {
		name = "index.html"
	}
	if !fs.ValidPath(name) {
		return echo.ErrNotFound
	}
	st, err := fs.Stat(s.cfg.UI, name)
	switch {
	case err == nil && !st.IsDir():
	case (err == nil && st.IsDir()) || (errors.Is(err, fs.ErrNotExist) && path.Ext(name) == ""):
		name = "index.html"
		if _, err := fs.Stat(s.cfg.UI, name); err != nil {
			return echo.ErrNotFound
		}
	default:
		return echo.ErrNotFound
	}
	if name == "index.html" {
		// The page names hashed assets; it must be re-fetched after an upgrade.
		c.Response().Header().Set("Cache-Control", "no-cache")
	} else if strings.HasPrefix(name, "assets/") {
		c.Response().Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	}
	f, err := s.cfg.UI.Open(name)
	if err != nil {
		return echo.ErrNotFound
	}
	defer f.Close()
	st, err = f.Stat()
	if err != nil {
		return err
	}
	if rs, ok := f.(interface {
		Read([]byte) (int, error)
		Seek(int64, int) (int64, error)
	}); ok {
		http.ServeContent(c.Response(), r, name, st.ModTime(), rs)
		return nil
	}
	data, err := fs.ReadFile(s.cfg.UI, name)
	if err != nil {
		return err
	}
	return c.Blob(http.StatusOK, contentType(name), data)
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".json", ".map":
		return "application/json"
	case ".svg":
		return "image/svg+xml"
	}
	return "application/octet-stream"
}

const notBuiltPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Strata</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:46rem;margin:3rem auto;padding:0 1rem;color:#222}code,pre{background:#f3f3f3;padding:.1rem .3rem;border-radius:3px}pre{padding:.8rem;overflow:auto}</style>
</head><body>
<h1>Strata is running</h1>
<p>The web UI is not built into this binary. Build it with <code>make build</code> at the
repository root (it runs npm and Go), or use the HTTP API and the websocket directly:</p>
<pre>TOKEN=$(cat .strata/token)   # in the project folder, or the token printed by strata start
curl -H "Authorization: Bearer $TOKEN" http://HOST/api/v1/pipelines
curl -H "Authorization: Bearer $TOKEN" http://HOST/api/v1/products
curl -H "Authorization: Bearer $TOKEN" -X POST -d '{"partition":"2024-03-10"}' \
     "http://HOST/api/v1/pipelines/clv/runs?wait=true"</pre>
<p>The routes are described in <code>docs/api.md</code> and the websocket messages in <code>docs/websocket.md</code>.</p>
</body></html>
`
