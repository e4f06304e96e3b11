package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/blocks/tableio"
	"github.com/stratahq/strata/projects/notebook"
	"github.com/stratahq/strata/projects/tableview"
)

// The result grid of an editor cell pages through the cell's output, which
// the session keeps as its draft (the result message carries only the first
// rows). These routes adapt notebook.Manager.DraftPage; the paging, sort and
// filter rules live in projects/tableview.

func (s *Server) tableRoutes(g *echo.Group) {
	g.GET("/sessions/:session/drafts/:pipeline/:block/rows", s.draftRows)
	g.GET("/sessions/:session/drafts/:pipeline/:block/rows.csv", s.draftCSV)
	g.GET("/sessions/:session/drafts/:pipeline/:block/summary", s.draftSummary)
}

// draftSummary: GET …/summary?partition= — each column's type, nulls, and
// min/max or distinct count over the whole output (the grid's headers).
func (s *Server) draftSummary(c echo.Context) error {
	owner, err := s.draftEnv(c, c.QueryParam("env"))
	if err != nil {
		return err
	}
	k := notebook.DraftKey{Pipeline: c.Param("pipeline"), Block: c.Param("block"), Partition: c.QueryParam("partition"), Env: owner}
	sum, err := s.sessions.DraftSummary(c.Param("session"), k)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sum)
}

func (s *Server) draftPage(c echo.Context, defLimit int) (notebook.DraftPage, tableview.Query, error) {
	q, err := pageQuery(c, defLimit)
	if err != nil {
		return notebook.DraftPage{}, q, err
	}
	owner, err := s.draftEnv(c, c.QueryParam("env"))
	if err != nil {
		return notebook.DraftPage{}, q, err
	}
	k := notebook.DraftKey{Pipeline: c.Param("pipeline"), Block: c.Param("block"), Partition: c.QueryParam("partition"), Env: owner}
	if defLimit == 0 { // an export: the whole result
		q.Offset, q.Limit = 0, 0
	}
	p, err := s.sessions.DraftPage(c.Param("session"), k, q)
	return p, q, err
}

// draftRows: GET …/rows?partition=&offset=&limit=&sort=col:desc,…&filter=
func (s *Server) draftRows(c echo.Context) error {
	p, q, err := s.draftPage(c, defaultPreviewRows)
	if err != nil {
		return err
	}
	preview := tableio.ToJSON(p.Table, -1, p.Zone)
	preview.RowCount = p.Total
	return c.JSON(http.StatusOK, struct {
		Draft    notebook.DraftInfo `json:"draft"`
		Timezone string             `json:"timezone"`
		Offset   int                `json:"offset"`
		Preview  tableio.JSONTable  `json:"preview"`
	}{p.Info, p.Zone.String(), q.Offset, preview})
}

// draftCSV: the whole output (sorted and filtered as asked) as CSV.
func (s *Server) draftCSV(c echo.Context) error {
	p, _, err := s.draftPage(c, 0)
	if err != nil {
		return err
	}
	return writeCSV(c, p.Info.Block+"-"+p.Info.Partition+".csv", p.Table, p.Zone)
}

// pageQuery reads offset, limit (defLimit when absent), sort and filter.
func pageQuery(c echo.Context, defLimit int) (tableview.Query, error) {
	var q tableview.Query
	var err error
	if q.Offset, err = intParam(c, "offset", 0, 0, 1<<31-1); err != nil {
		return q, err
	}
	if q.Limit, err = intParam(c, "limit", defLimit, 1, tableview.MaxLimit); err != nil {
		return q, err
	}
	if q.Sort, err = tableview.ParseSort(c.QueryParam("sort")); err != nil {
		return q, err
	}
	q.Filter = c.QueryParam("filter")
	if v := c.QueryParam("columns"); v != "" {
		// {"amount": ">100", "name": "acme"}: the filter box under each header.
		var m map[string]string
		if err := json.Unmarshal([]byte(v), &m); err != nil {
			return q, badRequest(`columns: want a JSON object of column filters such as {"amount": ">100"}: %v`, err)
		}
		names := make([]string, 0, len(m))
		for k := range m {
			names = append(names, k)
		}
		sort.Strings(names) // one order for one set of filters: the cached row order is reused
		for _, k := range names {
			q.Columns = append(q.Columns, tableview.ColumnFilter{Column: k, Expr: m[k]})
		}
	}
	return q, nil
}

// writeCSV sends t as a CSV download: every value its exact text, instants
// in loc with their offset.
func writeCSV(c echo.Context, filename string, t *sdk.Table, loc *time.Location) error {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	h.Set(echo.HeaderContentDisposition, fmt.Sprintf("attachment; filename=%q", safeFilename(filename)))
	c.Response().WriteHeader(http.StatusOK)
	return tableio.WriteCSV(c.Response(), t, loc)
}

func safeFilename(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == '"' || r < 0x20 {
			return '_'
		}
		return r
	}, s)
}
