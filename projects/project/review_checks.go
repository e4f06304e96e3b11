package project

import (
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// ReviewCheck is a product-level check over a whole staged backfill (the
// pipeline file's `checks:` list). A block's Check judges one partition's
// output while it runs; these judge what a backfill would change once all
// of it is staged, and gate its promotion:
//
//	checks:
//	  - name: revenue_total
//	    product: daily_customer_metrics
//	    total_within: {column: revenue, percent: 5}   # the column's total stays within 5% of the current one
//	  - name: rows_kept
//	    product: daily_customer_metrics
//	    max_row_loss_percent: 10                      # no partition loses more than 10% of its rows
//	  - name: no_negative_revenue
//	    sql: SELECT * FROM staged_daily_customer_metrics WHERE revenue < 0   # passes when it returns no rows
type ReviewCheck struct {
	Name    string
	Kind    string // CheckTotalWithin, CheckRowLoss or CheckSQL
	Product string // the block id or product name it was written with; "" for SQL checks
	Column  string // total_within
	Percent float64
	SQL     string
	Line    int

	path        string     // checks[i] in the file
	productNode *yaml.Node // where product was written
}

// Review check kinds.
const (
	CheckTotalWithin = "total_within"
	CheckRowLoss     = "max_row_loss_percent"
	CheckSQL         = "sql"
)

var checkFields = []string{"name", "product", CheckTotalWithin, CheckRowLoss, CheckSQL}
var checkNameRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// decodeChecks reads the pipeline's checks list.
func (d *decoder) decodeChecks(pl *Pipeline, e entry) {
	if e.val.Kind != yaml.SequenceNode {
		d.addf(e.val, "checks", "want a list of checks (each starting with \"- name: ...\"), got %s", describe(e.val))
		return
	}
	seen := map[string]int{}
	for i, n := range e.val.Content {
		path := index("checks", i)
		f, ok := d.fields(resolve(n), path, "a check", checkFields)
		if !ok {
			continue
		}
		c := ReviewCheck{Line: resolve(n).Line, path: path}
		ne, ok := f["name"]
		if !ok {
			d.addf(n, path+".name", "missing name: every check needs one, such as \"name: revenue_total\"")
			continue
		}
		if c.Name, ok = d.str(ne, path+".name"); !ok {
			continue
		}
		if !checkNameRE.MatchString(c.Name) {
			d.addf(ne.val, path+".name", "check name %q: want letters, digits, _ and -", c.Name)
			continue
		}
		if first, dup := seen[c.Name]; dup {
			d.addf(ne.val, path+".name", "duplicate check name %q (first at line %d)", c.Name, first)
			continue
		}
		seen[c.Name] = c.Line
		if pe, ok := f["product"]; ok {
			c.Product, _ = d.str(pe, path+".product")
			c.productNode = pe.val
		}
		var kinds []string
		for _, k := range []string{CheckTotalWithin, CheckRowLoss, CheckSQL} {
			if _, ok := f[k]; ok {
				kinds = append(kinds, k)
			}
		}
		if len(kinds) != 1 {
			d.addf(n, path, "check %q: want exactly one of total_within, max_row_loss_percent or sql, got %s", c.Name, quoteList(kinds))
			continue
		}
		c.Kind = kinds[0]
		ke := f[c.Kind]
		switch c.Kind {
		case CheckTotalWithin:
			tf, ok := d.fields(ke.val, path+"."+CheckTotalWithin, "a column and a percent", []string{"column", "percent"})
			if !ok {
				continue
			}
			if ce, ok := tf["column"]; ok {
				c.Column, _ = d.str(ce, path+".total_within.column")
			}
			if c.Column == "" {
				d.addf(ke.val, path+".total_within.column", "missing column: the numeric column whose total is compared")
				continue
			}
			pe, ok := tf["percent"]
			if !ok {
				d.addf(ke.val, path+".total_within.percent", "missing percent: how far the total may move, such as 5")
				continue
			}
			if c.Percent, ok = d.percent(pe, path+".total_within.percent"); !ok {
				continue
			}
		case CheckRowLoss:
			if c.Percent, ok = d.percent(ke, path+"."+CheckRowLoss); !ok {
				continue
			}
		case CheckSQL:
			if c.SQL, ok = d.str(ke, path+".sql"); !ok {
				continue
			}
			if strings.TrimSpace(c.SQL) == "" {
				d.addf(ke.val, path+".sql", "empty sql: want a query that returns the rows that fail")
				continue
			}
		}
		if c.Kind != CheckSQL && c.Product == "" {
			d.addf(n, path+".product", "check %q: missing product: the block id (or product name) it checks", c.Name)
			continue
		}
		pl.Checks = append(pl.Checks, c)
	}
}

// percent reads a non-negative number, optionally written with a % sign.
func (d *decoder) percent(e entry, path string) (float64, bool) {
	if e.val.Kind != yaml.ScalarNode {
		d.addf(e.val, path, "want a percent such as 5, got %s", describe(e.val))
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(e.val.Value), "%"), 64)
	if err != nil || v < 0 {
		d.addf(e.val, path, "want a percent of 0 or more such as 5, got %q", e.val.Value)
		return 0, false
	}
	return v, true
}

// checkReviewProducts makes every check name a block (by id or product).
func (d *decoder) checkReviewProducts(pl *Pipeline) {
	for _, c := range pl.Checks {
		if c.Product == "" {
			continue
		}
		found := false
		var ids []string
		for _, b := range pl.Blocks {
			ids = append(ids, b.ID)
			if b.ID == c.Product || (b.Product != "" && b.Product == c.Product) {
				found = true
			}
		}
		if !found {
			d.addf(c.productNode, c.path+".product", "check %q: no block %q%s in this pipeline", c.Name, c.Product, didYouMean(c.Product, ids))
		}
	}
}
