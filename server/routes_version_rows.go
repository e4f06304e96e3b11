package server

import (
	"bytes"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/blocks/sdk/sdktest"
	"github.com/stratahq/strata/projects/warehouse"
)

// versionRows: GET /products/:name/rows?partition=K[&version=V], one stored
// version of a partition (V 0 or absent: the current one) in sdktest's
// wire. It is how `strata test --read` (sdktest.FromVersion) reads while
// this server holds the warehouse file: the preview's JSON rounds numbers
// through float64 and so cannot carry an int128, a decimal or 2^53+1
// exactly; the wire writes each value as exact text with its column type.
func (s *Server) versionRows(c echo.Context) error {
	name, err := productName(c)
	if err != nil {
		return err
	}
	partition := c.QueryParam("partition")
	if partition == "" {
		return badRequest("want ?partition=KEY (and &version=V, default the current one)")
	}
	version := 0
	if v := c.QueryParam("version"); v != "" {
		if version, err = strconv.Atoi(v); err != nil || version < 0 {
			return badRequest("version %q: want a whole number, 1 or more (0: the current version)", v)
		}
	}
	t, err := s.wh.Read(c.Request().Context(), name, warehouse.Selection{Partitions: []string{partition}, Version: version}, -1)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := sdktest.WriteJSON(&b, DropPartitionColumn(t)); err != nil {
		return err
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, b.Bytes())
}

// DropPartitionColumn removes the warehouse's _partition from a read: a
// block never sees it in its inputs.
func DropPartitionColumn(t *sdk.Table) *sdk.Table {
	out := &sdk.Table{}
	for _, c := range t.Columns() {
		if c.Name != warehouse.PartitionColumn {
			out.AddColumn(c)
		}
	}
	return out
}
