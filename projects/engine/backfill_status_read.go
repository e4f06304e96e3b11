package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/stratahq/strata/projects/warehouse"
)

// statusRead is what one status read takes from the catalog of its own:
// the backfill's row and latest event. The UI polls a status every 2 s,
// so it is one warehouse.FollowAll: on a lake the catalog's snapshot is
// read once, and each table only for the commits since the last read.
// (Its counts and the versions that computed it are aggregates kept in
// the status cache: backfillCounts, backfillShares.)
type statusRead struct {
	createdAt, updatedAt    time.Time
	version, state, message string
}

// readStatus reads backfill id's statusRead.
func (e *Engine) readStatus(ctx context.Context, id string) (*statusRead, error) {
	res, err := e.wh.FollowAll(ctx,
		warehouse.Followed{Table: "backfills", Key: []string{"backfill_id"}, Columns: []string{"created_at", "snapshot"}, Where: "backfill_id = ?", Args: []any{id}},
		warehouse.Followed{Table: "backfill_events", Key: []string{"event_at", "state", "message"}, Where: "backfill_id = ?", Args: []any{id}})
	if err != nil {
		return nil, fmt.Errorf("backfill %s: %w", id, err)
	}
	if len(res[0]) == 0 || len(res[1]) == 0 {
		return nil, fmt.Errorf("backfill %s: no record of it or of its events", id)
	}
	r := &statusRead{}
	r.createdAt, _ = res[0][0][1].(time.Time)
	r.version, _ = res[0][0][2].(string)
	for i, ev := range res[1] {
		at, _ := ev[0].(time.Time)
		st, _ := ev[1].(string)
		// The latest event; of two at once, the greater state, so that
		// the answer does not depend on the order rows come in.
		if i == 0 || at.After(r.updatedAt) || (at.Equal(r.updatedAt) && st > r.state) {
			r.updatedAt, r.state = at, st
			r.message, _ = ev[2].(string)
		}
	}
	return r, nil
}
