package notebook

import (
	"errors"
	"fmt"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/tableview"
)

// ErrNoDraft is returned when a session holds no draft for a cell and
// partition (never run there, failed, or dropped past MaxDrafts).
var ErrNoDraft = errors.New("no draft")

// DraftPage is one page of a session's draft: the rows a cell's result
// grid shows past the preview that came with the result, sorted and
// filtered over the whole output.
type DraftPage struct {
	Table *sdk.Table
	Total int            // rows that passed the filter
	Zone  *time.Location // where the draft's instants are shown
	Info  DraftInfo
}

// DraftSummary is the header summary of every column of a draft: over the
// whole output, not the page.
type DraftSummary struct {
	Info    DraftInfo                 `json:"draft"`
	Columns []tableview.ColumnSummary `json:"columns"`
}

// DraftSummary summarizes the draft k of session id, once per draft.
func (m *Manager) DraftSummary(id string, k DraftKey) (DraftSummary, error) {
	d, err := m.draftOf(id, k)
	if err != nil {
		return DraftSummary{}, err
	}
	zone := d.meta.zone
	if zone == nil {
		zone = time.UTC
	}
	d.summaryMu.Lock()
	defer d.summaryMu.Unlock()
	if d.summary == nil {
		d.summary = tableview.Summarize(d.table, zone)
	}
	return DraftSummary{Info: DraftInfo{Pipeline: k.Pipeline, Block: k.Block, Partition: k.Partition, At: d.at, Rows: d.table.Len()}, Columns: d.summary}, nil
}

func (m *Manager) draftOf(id string, k DraftKey) (*draft, error) {
	m.mu.Lock()
	s := m.sessions[id]
	m.mu.Unlock()
	if s == nil {
		return nil, fmt.Errorf("editor session %q is not open here (reload the page): %w", id, ErrNoDraft)
	}
	d, ok := s.drafts.get(k)
	if !ok {
		return nil, fmt.Errorf("session %s has no output of %s/%s for partition %q (run the cell first): %w", id, k.Pipeline, k.Block, k.Partition, ErrNoDraft)
	}
	return d, nil
}

// DraftPage reads a page of the draft k of session id.
func (m *Manager) DraftPage(id string, k DraftKey, q tableview.Query) (DraftPage, error) {
	d, err := m.draftOf(id, k)
	if err != nil {
		return DraftPage{}, err
	}
	names := make([]string, 0, len(d.table.Columns()))
	for _, c := range d.table.Columns() {
		names = append(names, c.Name)
	}
	q, err = q.Check(names)
	if err != nil {
		return DraftPage{}, err
	}
	zone := d.meta.zone
	if zone == nil {
		zone = time.UTC
	}
	if err := tableview.CheckColumns(d.table, q, zone); err != nil {
		return DraftPage{}, err
	}
	order := d.orderFor(q, zone)
	return DraftPage{Table: tableview.Slice(d.table, order, q), Total: len(order), Zone: zone,
		Info: DraftInfo{Pipeline: k.Pipeline, Block: k.Block, Partition: k.Partition, At: d.at, Rows: d.table.Len()}}, nil
}

// orderFor returns the draft's rows in q's order, reusing the last one when
// only the page moved.
func (d *draft) orderFor(q tableview.Query, zone *time.Location) []int {
	key := tableview.OrderKey(q)
	d.orderMu.Lock()
	defer d.orderMu.Unlock()
	if d.order == nil || d.orderKey != key {
		d.order, d.orderKey = tableview.Order(d.table, q, zone), key
	}
	return d.order
}
