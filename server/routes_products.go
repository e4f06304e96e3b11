package server

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/blocks/tableio"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/envs"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/tableview"
	"github.com/stratahq/strata/projects/warehouse"
)

// Preview limits: the UI shows the first rows, never a whole product.
const (
	defaultPreviewRows = 100
	maxPreviewRows     = tableview.MaxLimit
)

func (s *Server) productRoutes(g *echo.Group) {
	g.GET("/products", s.listProducts)
	g.GET("/products/:name/partitions", s.productPartitions)
	g.GET("/products/:name/preview", s.previewProduct)
	g.GET("/products/:name/aggregate", s.aggregateProduct)
	g.GET("/products/:name/preview.csv", s.exportProduct)
	g.GET("/products/:name/rows", s.versionRows)
	g.POST("/products/:name/rollback", s.rollbackProduct)
	g.GET("/products/owners", s.productOwners)
	g.POST("/products/:name/transfer", s.transferProduct)
}

// productOwners: GET /products/owners, the recorded owner of each product.
func (s *Server) productOwners(c echo.Context) error {
	owners, err := s.eng.ProductOwners(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"owners": owners})
}

// transferProduct: POST /products/:name/transfer {"to": PIPELINE}, the
// explicit act that moves a product to another pipeline.
func (s *Server) transferProduct(c echo.Context) error {
	name, err := productName(c)
	if err != nil {
		return err
	}
	var req struct {
		To string `json:"to"`
	}
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if req.To == "" {
		return badRequest("want {\"to\": PIPELINE}: the pipeline that is to own %s", name)
	}
	from, err := s.eng.TransferProduct(c.Request().Context(), name, req.To)
	if err != nil {
		if errors.Is(err, warehouse.ErrNotFound) {
			return err
		}
		return conflict("%s", err.Error())
	}
	return c.JSON(http.StatusOK, map[string]any{"product": name, "pipeline": req.To, "from": from})
}

type productView struct {
	Name            string         `json:"name"`
	Pipeline        string         `json:"pipeline,omitempty"` // "" when no loaded pipeline writes it any more
	Block           string         `json:"block,omitempty"`
	Global          bool           `json:"global"` // exposed under a product name other pipelines read
	Partitioning    partitionsView `json:"partitioning"`
	Partitions      int            `json:"partitions"`
	Rows            int64          `json:"rows"`
	LatestPartition string         `json:"latest_partition"`
	UpdatedAt       time.Time      `json:"updated_at"`
}

func (s *Server) listProducts(c echo.Context) error {
	ps, err := s.wh.Products(c.Request().Context())
	if err != nil {
		return err
	}
	out := struct {
		Products []productView `json:"products"`
	}{Products: []productView{}}
	for _, p := range ps {
		v := productView{Name: p.Name, Partitions: p.Partitions, Rows: p.Rows, LatestPartition: p.LatestPartition, UpdatedAt: p.UpdatedAt}
		if pl, b := s.productOwner(p.Name); b != nil {
			v.Pipeline, v.Block, v.Global, v.Partitioning = pl.ID, b.ID, b.Product != "", partitionsOf(b.Partitions)
		}
		out.Products = append(out.Products, v)
	}
	return c.JSON(http.StatusOK, out)
}

type versionView struct {
	Version   int                       `json:"version"`
	Current   bool                      `json:"current"`
	RunID     string                    `json:"run_id"`
	CodeHash  string                    `json:"code_hash"`
	Rows      int64                     `json:"rows"`
	CreatedAt time.Time                 `json:"created_at"`
	Upstream  map[string]map[string]int `json:"upstream"`
	Snapshot  string                    `json:"snapshot,omitempty"` // the pipeline version that computed it
	BasedOn   int                       `json:"based_on,omitempty"` // the current version it was planned to replace
	// LakeSnapshot is the DuckLake snapshot it became current in (a
	// reader's AT (VERSION => n)); absent on the embedded file.
	LakeSnapshot int64 `json:"lake_snapshot,omitempty"`
}

type partitionView struct {
	Key      string        `json:"key"`
	Start    time.Time     `json:"start"`
	End      time.Time     `json:"end"`
	Current  int           `json:"current"` // 0 when only staged versions exist
	Versions []versionView `json:"versions"`
}

// productName checks a product name from the URL.
func productName(c echo.Context) (string, error) {
	name := c.Param("name")
	if err := project.ValidateProductName(name); err != nil {
		// Pipeline-local products are "<pipeline>__<block>", and pipeline
		// ids may hold hyphens, which product names may not.
		if !validLocalProduct(name) {
			return "", badRequest("%s", err.Error())
		}
	}
	return name, nil
}

func validLocalProduct(name string) bool {
	for i := 0; i+2 < len(name); i++ {
		if name[i] == '_' && name[i+1] == '_' {
			return project.ValidatePipelineID(name[:i]) == nil && project.ValidateBlockID(name[i+2:]) == nil
		}
	}
	return false
}

func (s *Server) productPartitions(c echo.Context) error {
	name, err := productName(c)
	if err != nil {
		return err
	}
	parts, err := s.wh.Partitions(c.Request().Context(), name)
	if err != nil {
		return err
	}
	if len(parts) == 0 {
		if _, b := s.productOwner(name); b == nil {
			return notFound("product %q not found", name)
		}
	}
	out := struct {
		Product    string          `json:"product"`
		Partitions []partitionView `json:"partitions"`
	}{Product: name, Partitions: []partitionView{}}
	for _, p := range parts {
		pv := partitionView{Key: p.Key, Start: p.Start, End: p.End, Current: p.Current, Versions: []versionView{}}
		for _, v := range p.Versions {
			pv.Versions = append(pv.Versions, versionView{Version: v.Version, Current: v.Version == p.Current, RunID: v.RunID,
				CodeHash: v.CodeHash, Rows: v.Rows, CreatedAt: v.CreatedAt, Upstream: v.Upstream, Snapshot: v.Snapshot, BasedOn: v.BasedOn, LakeSnapshot: v.LakeSnapshot})
		}
		out.Partitions = append(out.Partitions, pv)
	}
	return c.JSON(http.StatusOK, out)
}

// previewProduct reads a window of a product without running anything: the
// window flags of `strata preview` (partition, last, from/to, period,
// version) resolved by the engine in the partitioning of the block that
// writes the product, and times shown in that block's zone. offset, sort
// and filter page through the whole window (DuckDB sorts all of it).
func (s *Server) previewProduct(c echo.Context) error {
	pr, err := s.productWindow(c, defaultPreviewRows)
	if err != nil {
		return err
	}
	env := c.QueryParam("env")
	var t *sdk.Table
	var total int64
	if env != "" && env != envs.Prod {
		t, total, err = s.envPage(c, env, pr) // routes_envs.go
	} else {
		t, total, err = s.wh.ReadPage(c.Request().Context(), pr.name, pr.sel, pr.q)
	}
	if err != nil {
		return err
	}
	preview := tableio.ToJSON(t, -1, pr.loc)
	preview.RowCount = int(total) // the window's rows (after the filter), of which this page is a part
	return c.JSON(http.StatusOK, struct {
		Product  string            `json:"product"`
		Env      string            `json:"env,omitempty"` // the environment it was read in ("": prod)
		Window   sdk.Window        `json:"window"`
		Version  int               `json:"version,omitempty"`
		Timezone string            `json:"timezone"`
		Offset   int               `json:"offset"`
		Preview  tableio.JSONTable `json:"preview"`
	}{pr.name, env, pr.w, pr.sel.Version, pr.loc.String(), pr.q.Offset, preview})
}

// exportProduct is the whole window (sorted and filtered as asked) as CSV.
func (s *Server) exportProduct(c echo.Context) error {
	pr, err := s.productWindow(c, 0)
	if err != nil {
		return err
	}
	pr.q.Offset, pr.q.Limit = 0, 0
	var t *sdk.Table
	if env := c.QueryParam("env"); env != "" && env != envs.Prod {
		t, _, err = s.envPage(c, env, pr) // the rows the environment shows
	} else {
		t, _, err = s.wh.ReadPage(c.Request().Context(), pr.name, pr.sel, pr.q)
	}
	if err != nil {
		return err
	}
	return writeCSV(c, pr.name+".csv", t, pr.loc)
}

type productRequest struct {
	name string
	w    sdk.Window
	sel  warehouse.Selection
	q    tableview.Query
	loc  *time.Location
}

// productWindow reads the window and page parameters of a preview or export.
func (s *Server) productWindow(c echo.Context, defLimit int) (productRequest, error) {
	var pr productRequest
	name, err := productName(c)
	if err != nil {
		return pr, err
	}
	_, b := s.productOwner(name)
	if b == nil {
		return pr, notFound("product %q is not written by any pipeline of the project", name)
	}
	q := c.QueryParams()
	w := sdk.Window{Partition: q.Get("partition"), From: q.Get("from"), To: q.Get("to"), Period: q.Get("period")}
	if w.Last, err = intParam(c, "last", 0, 0, 1<<20); err != nil {
		return pr, err
	}
	version, err := intParam(c, "version", 0, 0, 1<<31-1)
	if err != nil {
		return pr, err
	}
	page, err := pageQuery(c, defLimit)
	if err != nil {
		return pr, err
	}
	if version > 0 && w.Partition == "" {
		return pr, badRequest("version needs partition: a version belongs to one partition")
	}
	sel, err := s.eng.ResolveWindow(name, w)
	if err != nil {
		return pr, badRequest("%s", err.Error())
	}
	sel.Version = version
	loc := time.UTC
	if spec, err := engine.SpecOf(b.Partitions); err == nil && spec.Zone != nil {
		loc = spec.Zone
	}
	return productRequest{name: name, w: w, sel: sel, q: page, loc: loc}, nil
}

// rollbackProduct: POST /products/:name/rollback {"partition", "version"}.
func (s *Server) rollbackProduct(c echo.Context) error {
	name, err := productName(c)
	if err != nil {
		return err
	}
	var req struct {
		Partition string `json:"partition"`
		Version   int    `json:"version"`
	}
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if req.Partition == "" || req.Version <= 0 {
		return badRequest("want {\"partition\": KEY, \"version\": N} with N >= 1")
	}
	if err := s.eng.RollbackProduct(c.Request().Context(), name, req.Partition, req.Version); err != nil {
		if errors.Is(err, warehouse.ErrNeverCurrent) {
			return conflict("%s", err.Error()) // a staged version: its promote decides
		}
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"product": name, "partition": req.Partition, "current": req.Version})
}

// intParam reads an optional integer query parameter within [lo, hi].
func intParam(c echo.Context, name string, def, lo, hi int) (int, error) {
	v := c.QueryParam(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, badRequest("%s=%q: want an integer from %d to %d", name, v, lo, hi)
	}
	return n, nil
}
