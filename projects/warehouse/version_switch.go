package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// Switching many partitions' current versions at once, guarded and
// reversible: how a reviewed backfill is promoted (all of it or a part, in
// one transaction) and later rolled back as a whole.
//
//   - Compare-and-set: each Switch names what it expects to replace. A
//     promote expects a current version older than the one it promotes (a
//     newer one was published after the backfill staged its version:
//     promoting would overwrite it); a rollback expects exactly the version
//     the batch made current. One mismatch refuses the whole batch with a
//     *SwitchConflictError listing every mismatch.
//   - Every applied switch is logged in _strata.switch_log under its batch
//     id, in the same transaction, so RevertBatch knows what was current
//     before.
//   - Retention keeps what these need: versions pinned by an owner
//     (_strata.pins: a staged backfill's versions, until promoted or
//     discarded) and the version a logged switch replaced, for as long as
//     the version it switched to is still current (after that, a rollback is
//     refused for the partition anyway).

var switchDDL = []string{
	`CREATE TABLE IF NOT EXISTS _strata.switch_log (
		batch        VARCHAR NOT NULL,
		product      VARCHAR NOT NULL,
		partition    VARCHAR NOT NULL,
		from_version INTEGER NOT NULL,
		to_version   INTEGER NOT NULL,
		switched_at  TIMESTAMPTZ NOT NULL,
		reverted_at  TIMESTAMPTZ
	)`,
	`CREATE TABLE IF NOT EXISTS _strata.pins (
		owner     VARCHAR NOT NULL,
		product   VARCHAR NOT NULL,
		partition VARCHAR NOT NULL,
		version   INTEGER NOT NULL
	)`,
}

// Special values of Switch.Expect. ExpectOlder: any current version older
// than To, or none. ExpectBasedOn: the version To was planned against (its
// based_on, recorded when it was staged: product_conflict.go), so a promote
// also refuses when the partition was rolled back or rewritten meanwhile.
const (
	ExpectOlder   = -1
	ExpectBasedOn = -2
)

// Switch moves one partition's current pointer to To (0: no current
// version) if the current one is Expect (0: none; ExpectOlder: older than To).
type Switch struct {
	Product   string `json:"product"`
	Partition string `json:"partition"`
	To        int    `json:"to_version"`
	Expect    int    `json:"expect"`
}

// SwitchConflict is a partition whose current version is not the one expected.
type SwitchConflict struct {
	Product   string `json:"product"`
	Partition string `json:"partition"`
	Current   int    `json:"current"`
	Want      int    `json:"want"` // the version the switch would have made current
	Expected  int    `json:"expected"`
	// Input, when set, is an upstream the version Want read (its lineage)
	// that moved: version InputRead of its partition InputPartition is
	// neither current (InputCurrent is) nor, with InputPromoted, the one
	// the same batch makes current (InputCurrent). InputsMoved counts the
	// upstream partitions that moved; this names the first
	// (version_switch_inputs.go).
	Input          string `json:"input,omitempty"`
	InputPartition string `json:"input_partition,omitempty"`
	InputRead      int    `json:"input_read,omitempty"`
	InputCurrent   int    `json:"input_current,omitempty"`
	InputPromoted  bool   `json:"input_promoted,omitempty"`
	InputsMoved    int    `json:"inputs_moved,omitempty"`
	// InputGone says the version Want read of the input was written by
	// Want's own run and no longer exists (a later run in the environment
	// replaced it, and retention dropped it): InputRead is then 0.
	InputGone bool `json:"input_gone,omitempty"`
}

func (c SwitchConflict) String() string {
	if c.Input != "" {
		more := ""
		if c.InputsMoved > 1 {
			more = fmt.Sprintf(" (and %d more upstream partitions moved)", c.InputsMoved-1)
		}
		now := fmt.Sprintf("version %s is current now", currentString(c.InputCurrent))
		if c.InputPromoted {
			now = fmt.Sprintf("the same promote makes version %d current", c.InputCurrent)
		}
		if c.InputGone {
			return fmt.Sprintf("%s %s: version %d was computed from the version of %s %s its own run wrote, which no longer exists (a later run replaced it and retention dropped it), and %s%s; run %s %s in the environment again",
				c.Product, c.Partition, c.Want, c.Input, c.InputPartition, now, more, c.Product, c.Partition)
		}
		return fmt.Sprintf("%s %s: version %d was computed from %s %s version %s, but %s%s",
			c.Product, c.Partition, c.Want, c.Input, c.InputPartition, currentString(c.InputRead), now, more)
	}
	if c.Expected == ExpectOlder {
		return fmt.Sprintf("%s %s: version %d is current, newer than version %d", c.Product, c.Partition, c.Current, c.Want)
	}
	return fmt.Sprintf("%s %s: version %s is current, not version %s", c.Product, c.Partition, currentString(c.Current), currentString(c.Expected))
}

// SwitchConflictError refuses a batch of switches; nothing was changed.
type SwitchConflictError struct {
	Conflicts []SwitchConflict
}

func (e *SwitchConflictError) Error() string {
	lines := make([]string, len(e.Conflicts))
	for i, c := range e.Conflicts {
		lines[i] = c.String()
	}
	return fmt.Sprintf("%d partitions changed since (nothing was switched): %s", len(e.Conflicts), abbreviate(lines, 10))
}

// ErrSwitchConflict is wrapped by a *SwitchConflictError, for errors.Is.
var ErrSwitchConflict = errors.New("conflict")

// Unwrap lets errors.Is(err, ErrSwitchConflict) find a conflict.
func (e *SwitchConflictError) Unwrap() error { return ErrSwitchConflict }

// SwitchBatch applies switches in one transaction under the batch id,
// releases the pins owner unpin holds in the switched partitions ("" keeps
// them), and applies retention to them. A conflict anywhere refuses all of
// it.
func (w *Warehouse) SwitchBatch(ctx context.Context, batch string, switches []Switch, unpin string) error {
	_, err := w.SwitchBatchChanged(ctx, batch, switches, unpin)
	return err
}

// SwitchBatchChanged is SwitchBatch returning the switches that changed a
// partition's current version. A switch to the version already current
// changes nothing: it is neither counted nor logged, so the batch's
// revert does not claim to roll it back.
func (w *Warehouse) SwitchBatchChanged(ctx context.Context, batch string, switches []Switch, unpin string) ([]Switch, error) {
	return w.switchBatch(ctx, batch, switches, unpin, false)
}

// switchBatch is SwitchBatchChanged, checking the switched versions'
// upstreams too when inputs (SwitchPinned).
func (w *Warehouse) switchBatch(ctx context.Context, batch string, switches []Switch, unpin string, inputs bool) ([]Switch, error) {
	if batch == "" {
		return nil, errors.New("switch: empty batch id")
	}
	if len(switches) == 0 {
		return nil, errors.New("switch: no partitions given")
	}
	var changed []Switch
	err := w.write(ctx, func(tx *writeTx) error {
		changed = changed[:0]
		var moved []SwitchConflict
		if inputs {
			var err error
			if moved, err = tx.inputConflicts(switches); err != nil {
				return err
			}
		}
		froms, err := tx.applySwitches(switches)
		if err != nil || len(moved) > 0 {
			return mergeConflicts(err, moved)
		}
		// One statement for the log and one for the pins, whatever the
		// number of partitions.
		now := time.Now().UTC().Format(time.RFC3339Nano)
		var log strings.Builder
		parts := make([]partKey, len(switches))
		for i, s := range switches {
			parts[i] = partKey{s.Product, s.Partition}
			tx.w.guarded[parts[i]] = true
			if froms[i] == s.To {
				continue
			}
			if len(changed) > 0 {
				log.WriteString(", ")
			}
			changed = append(changed, s)
			fmt.Fprintf(&log, "(%s, %s, %s, %d, %d, TIMESTAMPTZ %s, NULL)", quoteLiteral(batch), quoteLiteral(s.Product), quoteLiteral(s.Partition), froms[i], s.To, quoteLiteral(now))
		}
		if len(changed) > 0 {
			if err := tx.exec(`INSERT INTO _strata.switch_log VALUES ` + log.String()); err != nil {
				return fmt.Errorf("log switches: %w", err)
			}
		}
		if err := tx.releasePins(unpin, parts); err != nil {
			return err
		}
		return tx.retainSwitched(switches)
	})
	if err != nil {
		return nil, fmt.Errorf("switch %d partitions (%s): %w", len(switches), batch, err)
	}
	return changed, nil
}

// RevertBatch switches every partition of a batch back to the version that
// was current before it, in one transaction, and returns what it switched.
// A partition whose current version is no longer the one the batch made
// current refuses the revert with a *SwitchConflictError listing all of them.
func (w *Warehouse) RevertBatch(ctx context.Context, batch string) ([]Switch, error) {
	var back []Switch
	err := w.write(ctx, func(tx *writeTx) error {
		rows, err := tx.conn.QueryContext(tx.ctx, `SELECT product, partition, arg_min(from_version, switched_at), arg_max(to_version, switched_at)
			FROM _strata.switch_log WHERE batch = ? AND reverted_at IS NULL GROUP BY product, partition ORDER BY product, partition`, batch)
		if err != nil {
			return err
		}
		for rows.Next() {
			var s Switch
			var from int
			if err := rows.Scan(&s.Product, &s.Partition, &from, &s.Expect); err != nil {
				rows.Close()
				return err
			}
			s.To = from
			back = append(back, s)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(back) == 0 {
			return fmt.Errorf("batch %s switched nothing that is not already reverted: %w", batch, ErrNotFound)
		}
		if _, err := tx.applySwitches(back); err != nil {
			return err
		}
		now := time.Now()
		if err := tx.exec(`UPDATE _strata.switch_log SET reverted_at = ? WHERE batch = ? AND reverted_at IS NULL`, now.UTC(), batch); err != nil {
			return err
		}
		if err := tx.retainSwitched(back); err != nil {
			return err
		}
		// A switch logged from a version to itself (written before
		// SwitchBatchChanged skipped them) puts nothing back: it is not
		// counted as rolled back.
		back = slices.DeleteFunc(back, func(s Switch) bool { return s.To == s.Expect })
		return tx.logRollbacks(back, now)
	})
	if err != nil {
		return nil, fmt.Errorf("revert %s: %w", batch, err)
	}
	return back, nil
}

// applySwitches checks every switch against the current versions, then
// applies them all or none; it returns the version each replaced.
func (tx *writeTx) applySwitches(switches []Switch) ([]int, error) {
	seen := map[partKey]bool{}
	states := make([]*partState, len(switches))
	var conflicts []SwitchConflict
	for i, s := range switches {
		k := partKey{s.Product, s.Partition}
		if seen[k] {
			return nil, fmt.Errorf("%s partition %s is named twice", s.Product, s.Partition)
		}
		seen[k] = true
		st, err := tx.state(s.Product, s.Partition)
		if err != nil {
			return nil, err
		}
		if s.To != 0 {
			if _, ok := st.table(s.To); !ok {
				return nil, tx.missingVersion(VersionRef{Product: s.Product, Partition: s.Partition, Version: s.To})
			}
		}
		expected := s.Expect
		ok := st.current == s.Expect
		switch s.Expect {
		case ExpectOlder:
			ok = st.current < s.To
		case ExpectBasedOn:
			kv, _ := st.kept(s.To)
			expected = kv.basedOn
			ok = st.current == kv.basedOn || st.current == s.To
		}
		if !ok {
			conflicts = append(conflicts, SwitchConflict{Product: s.Product, Partition: s.Partition, Current: st.current, Want: s.To, Expected: expected})
		}
		states[i] = st
	}
	if len(conflicts) > 0 {
		sort.Slice(conflicts, func(i, j int) bool {
			if conflicts[i].Product != conflicts[j].Product {
				return conflicts[i].Product < conflicts[j].Product
			}
			return conflicts[i].Partition < conflicts[j].Partition
		})
		return nil, &SwitchConflictError{Conflicts: conflicts}
	}
	// The flags are written when the transaction flushes, in one UPDATE
	// whatever the number of partitions: a five-year promote switches some
	// fifteen thousand.
	froms := make([]int, len(switches))
	for i, s := range switches {
		froms[i] = states[i].current
		tx.setCurrent(states[i], s.To)
	}
	return froms, nil
}

// retainSwitched applies retention to switched partitions, once the log
// that protects their rollback targets is written.
func (tx *writeTx) retainSwitched(switches []Switch) error {
	for _, s := range switches {
		st, err := tx.state(s.Product, s.Partition)
		if err != nil {
			return err
		}
		if err := tx.retain(s.Product, s.Partition, st); err != nil {
			return err
		}
	}
	return nil
}

// BatchSwitches lists what a batch switched and whether it was reverted.
func (w *Warehouse) BatchSwitches(ctx context.Context, batch string) ([]LoggedSwitch, error) {
	var out []LoggedSwitch
	err := w.readTx(ctx, func(conn *sql.Conn) error {
		rows, err := conn.QueryContext(ctx, `SELECT product, partition, from_version, to_version, switched_at, reverted_at
			FROM _strata.switch_log WHERE batch = ? ORDER BY switched_at, product, partition`, batch)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s LoggedSwitch
			var rev sql.NullTime
			if err := rows.Scan(&s.Product, &s.Partition, &s.From, &s.To, &s.At, &rev); err != nil {
				return err
			}
			s.Reverted = rev.Valid
			out = append(out, s)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("switches of %s: %w", batch, err)
	}
	return out, nil
}

// LoggedSwitch is one applied switch of a batch.
type LoggedSwitch struct {
	Product   string    `json:"product"`
	Partition string    `json:"partition"`
	From      int       `json:"from_version"`
	To        int       `json:"to_version"`
	At        time.Time `json:"switched_at"`
	Reverted  bool      `json:"reverted"`
}
