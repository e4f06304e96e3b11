package server

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/warehouse"
)

// aggregateProduct: GET /products/:name/aggregate, a chart's numbers over a
// whole window (the window flags of the preview), computed in the
// warehouse: kind=series (x=a time column or _partition, y, agg=sum|avg|
// min|max|count, bucket=auto|none|minute|hour|day|week|month|quarter|year)
// or kind=histogram (y, bins). Buckets follow the zone of the block that
// writes the product.
func (s *Server) aggregateProduct(c echo.Context) error {
	name, err := productName(c)
	if err != nil {
		return err
	}
	_, b := s.productOwner(name)
	if b == nil {
		return notFound("product %q is not written by any pipeline of the project", name)
	}
	if env := c.QueryParam("env"); env != "" && env != "prod" {
		// A chart of prod's data on a page in dev would be taken for dev's.
		return badRequest("env %s: charts aggregate prod's data only; switch to prod to chart %s", env, name)
	}
	q := c.QueryParams()
	w := sdk.Window{Partition: q.Get("partition"), From: q.Get("from"), To: q.Get("to"), Period: q.Get("period")}
	if w.Last, err = intParam(c, "last", 0, 0, 1<<20); err != nil {
		return err
	}
	bins, err := intParam(c, "bins", 0, 0, 1000)
	if err != nil {
		return err
	}
	sel, err := s.eng.ResolveWindow(name, w)
	if err != nil {
		return badRequest("%s", err.Error())
	}
	zone := time.UTC
	if spec, err := engine.SpecOf(b.Partitions); err == nil && spec.Zone != nil {
		zone = spec.Zone
	}
	aq := warehouse.AggregateQuery{Kind: q.Get("kind"), X: q.Get("x"), Y: q.Get("y"), Agg: q.Get("agg"), Bucket: q.Get("bucket"), Bins: bins, Zone: zone}
	if aq.Agg == "" {
		aq.Agg = "sum"
	}
	a, err := s.wh.Aggregate(c.Request().Context(), name, sel, aq)
	var qe *warehouse.QueryError
	if errors.As(err, &qe) {
		return badRequest("%s", err.Error())
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, struct {
		Product string     `json:"product"`
		Window  sdk.Window `json:"window"`
		*warehouse.Aggregation
	}{name, w, a})
}
