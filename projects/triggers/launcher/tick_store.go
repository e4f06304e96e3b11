package launcher

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Firings are recorded in _strata.trigger_ticks before anything launches
// (intent first): a restart reads the last recorded tick of each trigger, so
// it neither loses a tick nor fires one twice, and finds the intents whose
// work had not been launched yet. The table is append-only like the run
// state: a tick is one row, a batch of skipped ticks one row too.
const tickSchema = `
CREATE SCHEMA IF NOT EXISTS _strata;
CREATE TABLE IF NOT EXISTS _strata.trigger_ticks (
	pipeline VARCHAR, trigger_id VARCHAR, source VARCHAR, tick TIMESTAMPTZ, recorded_at TIMESTAMPTZ,
	action VARCHAR, work_id VARCHAR, work_kind VARCHAR, from_key VARCHAR, to_key VARCHAR,
	skipped INTEGER, skipped_first TIMESTAMPTZ, skipped_last TIMESTAMPTZ, detail VARCHAR, origin VARCHAR);
ALTER TABLE _strata.trigger_ticks ADD COLUMN IF NOT EXISTS box VARCHAR;
`

// tickColumns names the columns inserts write, so that a column added later
// (box) is written by name in tables created before it.
const tickColumns = `pipeline, trigger_id, source, tick, recorded_at, action, work_id, work_kind, from_key, to_key,
	skipped, skipped_first, skipped_last, detail, origin, box`

// Actions of a recorded tick.
const (
	ActionSeen     = "seen"     // the trigger was first seen: ticks count from here
	ActionLaunched = "launched" // work was (or is about to be) launched under WorkID
	ActionSkipped  = "skipped"  // missed ticks beyond catch_up.max, or ticks while paused
	ActionFailed   = "failed"   // the tick's work could not be launched (Detail says why)
)

// Work kinds.
const (
	WorkBackfill = "backfill"
	WorkRun      = "run" // an unpartitioned pipeline's one run
)

// Firing is one recorded row.
type Firing struct {
	Pipeline     string    `json:"pipeline"`
	Trigger      string    `json:"trigger"`
	Source       string    `json:"source"` // schedule, event or api: what fired it
	Tick         time.Time `json:"tick"`
	RecordedAt   time.Time `json:"recorded_at"`
	Action       string    `json:"action"`
	WorkID       string    `json:"work_id,omitempty"`
	WorkKind     string    `json:"work_kind,omitempty"`
	From         string    `json:"from,omitempty"`
	To           string    `json:"to,omitempty"`
	Skipped      int       `json:"skipped,omitempty"`
	SkippedFirst time.Time `json:"skipped_first,omitzero"`
	SkippedLast  time.Time `json:"skipped_last,omitzero"`
	Detail       string    `json:"detail,omitempty"`
	Origin       string    `json:"-"`
	// Where and KeySets narrow a backfill to some cells of a pipeline with
	// value dimensions (a new-key trigger: the new keys alone, against the
	// key set version that added them); stored as the box column.
	Where   map[string][]string `json:"where,omitempty"`
	KeySets map[string]int      `json:"key_sets,omitempty"`
	// State is the outcome of the work (filled when read): running,
	// succeeded, failed, ...
	State string `json:"state,omitempty"`
}

type tickStore struct{ db *sql.DB }

func openTickStore(ctx context.Context, db *sql.DB) (*tickStore, error) {
	for _, stmt := range strings.Split(tickSchema+";"+pendingSchema+";"+copiesSchema, ";") {
		if strings.TrimSpace(stmt) == "" {
			continue
		}
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			return nil, fmt.Errorf("create trigger tables: %w", err)
		}
	}
	return &tickStore{db: db}, nil
}

// record writes firings in one transaction.
func (s *tickStore) record(ctx context.Context, fs ...Firing) error {
	if len(fs) == 0 {
		return nil
	}
	return s.inTx(ctx, func(tx *sql.Tx) error { return insertFirings(ctx, tx, fs) })
}

// inTx runs fn in one transaction: committed when fn succeeds, rolled
// back when it fails.
func (s *tickStore) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

func insertFirings(ctx context.Context, tx *sql.Tx, fs []Firing) error {
	for _, f := range fs {
		if err := insertFiring(ctx, tx, f); err != nil {
			return err
		}
	}
	return nil
}

func insertFiring(ctx context.Context, tx *sql.Tx, f Firing) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO _strata.trigger_ticks (`+tickColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		f.Pipeline, f.Trigger, f.Source, f.Tick.UTC(), f.RecordedAt.UTC(), f.Action, f.WorkID, f.WorkKind, f.From, f.To,
		f.Skipped, nullTime(f.SkippedFirst), nullTime(f.SkippedLast), f.Detail, f.Origin, encodeBox(f)); err != nil {
		return fmt.Errorf("record trigger tick: %w", err)
	}
	return nil
}

func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC()
}

// anchors returns, per "pipeline/trigger", the newest recorded tick of
// schedule work (seen, launched or skipped ticks; API and event firings do
// not move a schedule).
func (s *tickStore) anchors(ctx context.Context) (map[string]time.Time, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT pipeline, trigger_id, max(greatest(tick, coalesce(skipped_last, tick))) FROM _strata.trigger_ticks
		WHERE source = 'schedule' GROUP BY pipeline, trigger_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]time.Time{}
	for rows.Next() {
		var pl, tr string
		var t time.Time
		if err := rows.Scan(&pl, &tr, &t); err != nil {
			return nil, err
		}
		out[pauseKey(pl, tr)] = t
	}
	return out, rows.Err()
}

// history lists a trigger's firings, newest first, one row per tick in its
// final state; trigger "" lists every trigger of the pipeline, pipeline ""
// every pipeline.
//
// A tick is recorded launched before its work starts (intent first) and
// gets a second row when it does not start after all: skipped (its trigger
// was paused while it waited in the queue) or failed (the engine refused
// it). The table stays append-only, so the rows of one work id are folded
// here, the last recorded winning: rowid orders them, since nothing is ever
// deleted from the table, where recorded_at can tie (one clock reading for
// both, or a fake clock). Rows without a work id (a skipped batch, a tick
// that could not pick its partitions) are ticks of their own.
func (s *tickStore) history(ctx context.Context, pipeline, trigger string, limit int) ([]Firing, error) {
	where, args := []string{"action <> 'seen'"}, []any{}
	if pipeline != "" {
		where, args = append(where, "pipeline = ?"), append(args, pipeline)
	}
	if trigger != "" {
		where, args = append(where, "trigger_id = ?"), append(args, trigger)
	}
	args = append(args, limit)
	rows, err := s.db.QueryContext(ctx, `SELECT t.pipeline, t.trigger_id, t.source, t.tick, t.recorded_at, t.action, t.work_id, t.work_kind,
		t.from_key, t.to_key, t.skipped, t.skipped_first, t.skipped_last, t.detail, t.origin, coalesce(t.box, ''),
		coalesce((SELECT arg_max(state, event_at) FROM _strata.backfill_events b WHERE b.backfill_id = t.work_id),
		         (SELECT arg_max(state, seq) FROM _strata.run_events r WHERE r.run_id = t.work_id AND r.block_id = ''), '')
		FROM (SELECT *, rowid AS seq FROM _strata.trigger_ticks WHERE `+strings.Join(where, " AND ")+`
			QUALIFY row_number() OVER (PARTITION BY pipeline, trigger_id, CASE WHEN work_id = '' THEN 'row ' || rowid ELSE work_id END
				ORDER BY rowid DESC) = 1) t
		ORDER BY t.recorded_at DESC, t.tick DESC, t.seq DESC LIMIT ?`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Firing
	for rows.Next() {
		var f Firing
		var sf, sl sql.NullTime
		var box string
		if err := rows.Scan(&f.Pipeline, &f.Trigger, &f.Source, &f.Tick, &f.RecordedAt, &f.Action, &f.WorkID, &f.WorkKind, &f.From, &f.To,
			&f.Skipped, &sf, &sl, &f.Detail, &f.Origin, &box, &f.State); err != nil {
			return nil, err
		}
		if err := decodeBox(box, &f); err != nil {
			return nil, fmt.Errorf("trigger %s/%s, work %s: %w", f.Pipeline, f.Trigger, f.WorkID, err)
		}
		f.SkippedFirst, f.SkippedLast = sf.Time, sl.Time
		out = append(out, f)
	}
	return out, rows.Err()
}

// unfinished lists launched firings whose work has not ended (or never
// started: the process died between recording and launching), oldest tick
// first: what a restart must carry on.
func (s *tickStore) unfinished(ctx context.Context) ([]Firing, error) {
	all, err := s.history(ctx, "", "", 1_000_000)
	if err != nil {
		return nil, err
	}
	// history folds each tick to its last row: a launched tick skipped
	// before its work started (its trigger was paused), or whose launch the
	// engine refused, is not launched any more and has nothing to carry on.
	var out []Firing
	for i := len(all) - 1; i >= 0; i-- {
		f := all[i]
		if f.Action != ActionLaunched {
			continue
		}
		switch f.State {
		case "succeeded", "failed", "cancelled", "skipped":
			continue
		}
		out = append(out, f)
	}
	return out, nil
}

// box is the stored form of a firing's Where and KeySets.
type box struct {
	Where   map[string][]string `json:"where,omitempty"`
	KeySets map[string]int      `json:"key_sets,omitempty"`
}

func encodeBox(f Firing) any {
	if len(f.Where) == 0 && len(f.KeySets) == 0 {
		return nil
	}
	raw, _ := json.Marshal(box{Where: f.Where, KeySets: f.KeySets})
	return string(raw)
}

func decodeBox(raw string, f *Firing) error {
	if raw == "" {
		return nil
	}
	var b box
	if err := json.Unmarshal([]byte(raw), &b); err != nil {
		return fmt.Errorf("read its cells (box %q): %w", raw, err)
	}
	f.Where, f.KeySets = b.Where, b.KeySets
	return nil
}

// lastKeySet is the newest key set version of dim that a launched firing
// of the trigger targeted (0 for none): a new-key trigger runs the keys
// added since, so keys added while it was down or paused still run once,
// and a key already run does not run again.
func (s *tickStore) lastKeySet(ctx context.Context, pipeline, trigger, dim string) (int, error) {
	var v sql.NullInt64
	err := s.db.QueryRowContext(ctx, `SELECT max(CAST(json_extract(box, '$.key_sets.' || ?) AS INTEGER)) FROM _strata.trigger_ticks
		WHERE pipeline = ? AND trigger_id = ? AND action IN ('launched', 'skipped') AND box IS NOT NULL`, dim, pipeline, trigger).Scan(&v)
	return int(v.Int64), err
}
