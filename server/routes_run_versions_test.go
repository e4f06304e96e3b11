package server

import (
	"net/http"
	"testing"

	"github.com/stratahq/strata/projects/engine"
)

// TestRunListsTheVersionsItWrote: a run's detail lists the product versions
// it wrote, and each of them names that run in the product's version list
// (the links both ways on the run and product pages).
func TestRunListsTheVersionsItWrote(t *testing.T) {
	e := newEnv(t)
	var res engine.RunResult
	e.call(http.MethodPost, "/api/v1/pipelines/clv/runs?wait=true", map[string]string{"partition": "2024-03-10"}, http.StatusOK, &res)
	var d engine.RunDetail
	e.call(http.MethodGet, "/api/v1/runs/"+res.RunID, nil, http.StatusOK, &d)
	byProduct := map[string]engine.RunVersion{}
	for _, v := range d.Versions {
		byProduct[v.Product] = v
	}
	v, ok := byProduct["clv__raw_orders"]
	if !ok || v.Partition != "2024-03-10" || v.Version != 1 || !v.Current || v.Rows == 0 {
		t.Fatalf("versions of the run: %+v", d.Versions)
	}
	var parts struct {
		Partitions []struct {
			Key      string
			Versions []struct {
				Version int
				RunID   string `json:"run_id"`
			}
		}
	}
	e.call(http.MethodGet, "/api/v1/products/clv__raw_orders/partitions", nil, http.StatusOK, &parts)
	found := false
	for _, p := range parts.Partitions {
		for _, pv := range p.Versions {
			if p.Key == "2024-03-10" && pv.Version == 1 {
				found = pv.RunID == res.RunID
			}
		}
	}
	if !found {
		t.Fatalf("the version does not name its run %s: %+v", res.RunID, parts)
	}
	// A second run of the partition: the first run's version is no longer current.
	var again engine.RunResult
	e.call(http.MethodPost, "/api/v1/pipelines/clv/runs?wait=true", map[string]string{"partition": "2024-03-10"}, http.StatusOK, &again)
	e.call(http.MethodGet, "/api/v1/runs/"+res.RunID, nil, http.StatusOK, &d)
	for _, v := range d.Versions {
		if v.Product == "clv__raw_orders" && v.Current {
			t.Fatalf("still current after a newer run: %+v", v)
		}
	}
}
