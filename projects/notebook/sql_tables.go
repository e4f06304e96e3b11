package notebook

import (
	"context"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/engine"
)

// SQLTables is what a SQL cell of session id can name (engine.SQLTables):
// its upstreams with their columns, from the session's newest draft of
// each where it has one (a cell run but never published), else from the
// warehouse catalog.
func (m *Manager) SQLTables(ctx context.Context, id, pipeline, block, env string) ([]engine.SQLTable, error) {
	var drafts func(string) ([]sdk.Field, bool)
	if s := m.Find(id); s != nil {
		drafts = func(b string) ([]sdk.Field, bool) {
			d, ok := s.drafts.newest(pipeline, b, env)
			if !ok {
				return nil, false
			}
			return d.table.Schema(), true
		}
	}
	return m.cfg.Engine.SQLTables(ctx, pipeline, block, drafts)
}
