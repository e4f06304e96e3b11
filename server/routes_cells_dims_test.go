package server

import (
	"net/http"
	"strings"
	"testing"
)

const cellsPipelineYAML = `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [us, eu]
    - name: customer
      from: {product: dim_customers, column: customer_id}
blocks:
  - id: raw_orders
`

// TestDimensionsOverHTTP: the pipeline view lists the dimensions, a plan
// takes a where and refuses a bad one with a 4xx naming it, and the key
// sets of a dynamic dimension are listed (none before a plan reads one).
func TestDimensionsOverHTTP(t *testing.T) {
	e := newEnv(t)
	e.call(http.MethodPut, "/api/v1/pipelines/cells", map[string]string{"yaml": cellsPipelineYAML}, http.StatusCreated, nil)
	var pv pipelineView
	e.call(http.MethodGet, "/api/v1/pipelines/cells", nil, http.StatusOK, &pv)
	d := pv.Partitions.Dims
	if len(d) != 2 || d[0].Name != "region" || d[0].Kind != "static" || strings.Join(d[0].Values, ",") != "us,eu" ||
		d[1].Kind != "dynamic" || d[1].Product != "dim_customers" || d[1].Column != "customer_id" {
		t.Fatalf("dimensions %+v", d)
	}
	var sets struct {
		Versions []map[string]any `json:"versions"`
	}
	e.call(http.MethodGet, "/api/v1/pipelines/cells/key-sets/customer", nil, http.StatusOK, &sets)
	if len(sets.Versions) != 0 {
		t.Fatalf("key sets before any plan: %v", sets.Versions)
	}
	body := e.call(http.MethodGet, "/api/v1/pipelines/cells/key-sets/region", nil, http.StatusNotFound, nil)
	if !strings.Contains(string(body), `no dynamic dimension \"region\" (dynamic: customer)`) {
		t.Fatalf("key sets of a static dimension: %s", body)
	}
	// The demo's daily_customer_metrics has customer_id: not a product of
	// this project's dim_customers, so the plan says what is missing.
	body = e.call(http.MethodPost, "/api/v1/backfills/plan", map[string]any{"pipeline": "cells", "from": "2024-01-01", "to": "2024-01-02",
		"where": map[string][]string{"region": {"eu"}}}, http.StatusBadRequest, nil)
	if !strings.Contains(string(body), "dimension customer: its key set is column customer_id of product dim_customers, which has no current data") {
		t.Fatalf("plan without the key set: %s", body)
	}
}
