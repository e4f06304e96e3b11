package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
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
//     *ConflictError listing every mismatch.
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

// ExpectOlder is Switch.Expect for a promote: any current version older
// than To, or none.
const ExpectOlder = -1

// Switch moves one partition's current pointer to To (0: no current
// version) if the current one is Expect (0: none; ExpectOlder: older than To).
type Switch struct {
	Product   string `json:"product"`
	Partition string `json:"partition"`
	To        int    `json:"to_version"`
	Expect    int    `json:"expect"`
}

// Conflict is a partition whose current version is not the one expected.
type Conflict struct {
	Product   string `json:"product"`
	Partition string `json:"partition"`
	Current   int    `json:"current"`
	Want      int    `json:"want"` // the version the switch would have made current
	Expected  int    `json:"expected"`
}

func (c Conflict) String() string {
	if c.Expected == ExpectOlder {
		return fmt.Sprintf("%s %s: version %d is current, newer than version %d", c.Product, c.Partition, c.Current, c.Want)
	}
	return fmt.Sprintf("%s %s: version %s is current, not version %s", c.Product, c.Partition, currentString(c.Current), currentString(c.Expected))
}

// ConflictError refuses a batch of switches; nothing was changed.
type ConflictError struct {
	Conflicts []Conflict
}

func (e *ConflictError) Error() string {
	lines := make([]string, len(e.Conflicts))
	for i, c := range e.Conflicts {
		lines[i] = c.String()
	}
	return fmt.Sprintf("%d partitions changed since (nothing was switched): %s", len(e.Conflicts), abbreviate(lines, 10))
}

// ErrConflict is wrapped by a *ConflictError, for errors.Is.
var ErrConflict = errors.New("conflict")

// Unwrap lets errors.Is(err, ErrConflict) find a conflict.
func (e *ConflictError) Unwrap() error { return ErrConflict }

// SwitchBatch applies switches in one transaction under the batch id,
// releases the pins of owner unpin ("" keeps them), and applies retention
// to the switched partitions. A conflict anywhere refuses all of it.
func (w *Warehouse) SwitchBatch(ctx context.Context, batch string, switches []Switch, unpin string) error {
	if batch == "" {
		return errors.New("switch: empty batch id")
	}
	if len(switches) == 0 {
		return errors.New("switch: no partitions given")
	}
	err := w.write(ctx, func(tx *writeTx) error {
		now := time.Now().UTC()
		if err := tx.applySwitches(switches, func(s Switch, from int) error {
			return tx.exec(`INSERT INTO _strata.switch_log VALUES (?, ?, ?, ?, ?, ?, NULL)`, batch, s.Product, s.Partition, from, s.To, now)
		}); err != nil {
			return err
		}
		if unpin != "" {
			return tx.exec(`DELETE FROM _strata.pins WHERE owner = ?`, unpin)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("switch %d partitions (%s): %w", len(switches), batch, err)
	}
	return nil
}

// RevertBatch switches every partition of a batch back to the version that
// was current before it, in one transaction, and returns what it switched.
// A partition whose current version is no longer the one the batch made
// current refuses the revert with a *ConflictError listing all of them.
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
		if err := tx.applySwitches(back, nil); err != nil {
			return err
		}
		return tx.exec(`UPDATE _strata.switch_log SET reverted_at = ? WHERE batch = ? AND reverted_at IS NULL`, time.Now().UTC(), batch)
	})
	if err != nil {
		return nil, fmt.Errorf("revert %s: %w", batch, err)
	}
	return back, nil
}

// applySwitches checks every switch against the current versions, then
// applies them all (calling logged for each) or none.
func (tx *writeTx) applySwitches(switches []Switch, logged func(s Switch, from int) error) error {
	seen := map[partKey]bool{}
	states := make([]*partState, len(switches))
	var conflicts []Conflict
	for i, s := range switches {
		k := partKey{s.Product, s.Partition}
		if seen[k] {
			return fmt.Errorf("%s partition %s is named twice", s.Product, s.Partition)
		}
		seen[k] = true
		st, err := tx.state(s.Product, s.Partition)
		if err != nil {
			return err
		}
		if s.To != 0 {
			if _, ok := st.table(s.To); !ok {
				return missingVersion(tx.ctx, tx.conn, VersionRef{Product: s.Product, Partition: s.Partition, Version: s.To})
			}
		}
		ok := st.current == s.Expect
		if s.Expect == ExpectOlder {
			ok = st.current < s.To
		}
		if !ok {
			conflicts = append(conflicts, Conflict{Product: s.Product, Partition: s.Partition, Current: st.current, Want: s.To, Expected: s.Expect})
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
		return &ConflictError{Conflicts: conflicts}
	}
	for i, s := range switches {
		st := states[i]
		from := st.current
		if s.To == 0 {
			if err := tx.clearCurrent(s.Product, s.Partition, st); err != nil {
				return err
			}
		} else if err := tx.setCurrent(s.Product, s.Partition, st, s.To, false); err != nil {
			return err
		}
		if logged != nil {
			if err := logged(s, from); err != nil {
				return fmt.Errorf("log switch of %s partition %s: %w", s.Product, s.Partition, err)
			}
			tx.w.guarded[partKey{s.Product, s.Partition}] = true
		}
		if err := tx.retain(s.Product, s.Partition, st); err != nil {
			return err
		}
	}
	return nil
}

// clearCurrent leaves a partition without a current version (a rollback of
// the backfill that first wrote it).
func (tx *writeTx) clearCurrent(product, partition string, st *partState) error {
	if st.current == 0 {
		return nil
	}
	if err := tx.exec(`UPDATE _strata.versions SET is_current = false WHERE product = ? AND partition = ? AND version = ?`, product, partition, st.current); err != nil {
		return fmt.Errorf("clear current of %s partition %s: %w", product, partition, err)
	}
	st.current = 0
	return nil
}

// Pin keeps versions from retention on behalf of owner until Unpin (or a
// SwitchBatch releasing owner's pins).
func (w *Warehouse) Pin(ctx context.Context, owner string, refs []VersionRef) error {
	if owner == "" || len(refs) == 0 {
		return nil
	}
	err := w.write(ctx, func(tx *writeTx) error {
		for _, r := range refs {
			if err := tx.pin(owner, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("pin %d versions for %s: %w", len(refs), owner, err)
	}
	return nil
}

func (tx *writeTx) pin(owner string, r VersionRef) error {
	if err := tx.exec(`INSERT INTO _strata.pins VALUES (?, ?, ?, ?)`, owner, r.Product, r.Partition, r.Version); err != nil {
		return fmt.Errorf("pin %s: %w", r, err)
	}
	tx.w.guarded[partKey{r.Product, r.Partition}] = true
	return nil
}

// Unpin releases every pin of owner.
func (w *Warehouse) Unpin(ctx context.Context, owner string) error {
	err := w.write(ctx, func(tx *writeTx) error {
		return tx.exec(`DELETE FROM _strata.pins WHERE owner = ?`, owner)
	})
	if err != nil {
		return fmt.Errorf("unpin %s: %w", owner, err)
	}
	return nil
}

// protectedVersions are the versions of a partition retention must keep
// besides the current one: pinned ones, and those a logged switch replaced
// while the version it switched to is still current. It asks the catalog
// only for partitions a pin or switch ever touched.
func (tx *writeTx) protectedVersions(product, partition string, current int) (map[int]bool, error) {
	if !tx.w.guarded[partKey{product, partition}] {
		return nil, nil
	}
	rows, err := tx.query(`SELECT version FROM _strata.pins WHERE product = $1 AND partition = $2
		UNION ALL SELECT from_version FROM _strata.switch_log
		WHERE product = $1 AND partition = $2 AND reverted_at IS NULL AND to_version = $3`, product, partition, current)
	if err != nil {
		return nil, fmt.Errorf("protected versions of %s partition %s: %w", product, partition, err)
	}
	defer rows.Close()
	out := map[int]bool{}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out[v] = true
	}
	return out, rows.Err()
}

// loadGuarded reads which partitions have pins or logged switches.
func loadGuarded(ctx context.Context, q querier) (map[partKey]bool, error) {
	rows, err := q.QueryContext(ctx, `SELECT DISTINCT product, partition FROM _strata.pins
		UNION SELECT DISTINCT product, partition FROM _strata.switch_log WHERE reverted_at IS NULL`)
	if err != nil {
		return nil, fmt.Errorf("load pins: %w", err)
	}
	defer rows.Close()
	out := map[partKey]bool{}
	for rows.Next() {
		var k partKey
		if err := rows.Scan(&k.product, &k.partition); err != nil {
			return nil, err
		}
		out[k] = true
	}
	return out, rows.Err()
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
