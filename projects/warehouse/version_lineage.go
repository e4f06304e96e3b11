package warehouse

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// StoredVersion is a partition's current version with what computed it:
// the run, and the upstream versions it read (its lineage). A replay
// computes the partition again from exactly those versions.
type StoredVersion struct {
	Product   string    `json:"product"`
	Partition string    `json:"partition"`
	Start     time.Time `json:"start"`
	End       time.Time `json:"end"`
	Version   int       `json:"version"`
	RunID     string    `json:"run_id"`
	Rows      int64     `json:"rows"`
	// Upstream is product -> partition -> version; version 0 means "written
	// by the same run" (RunVersions resolves it).
	Upstream map[string]map[string]int `json:"upstream"`
	// Hash is the version's content hash ("" for a version written before
	// content hashes): equal to ContentHash of a table, the rows are equal.
	Hash string `json:"-"`
	// StartState is the block state the version's run started from (nil:
	// none); StartKnown is false for a version written before that was
	// recorded (version_state.go).
	StartState map[string]string `json:"-"`
	StartKnown bool              `json:"-"`
}

// ContentHash is the content hash a publish of t would record: a table
// whose hash and row count equal a version's holds that version's rows
// (content_hash.go), which a replay checks without asking DuckDB.
func ContentHash(t *sdk.Table) (string, error) {
	schema, err := tableSchema(t)
	if err != nil {
		return "", err
	}
	return contentHash(t, schema), nil
}

// CurrentStored lists the current versions of the given products whose
// partition is one of keys (every partition when keys is nil), by partition
// start.
func (w *Warehouse) CurrentStored(ctx context.Context, products []string, keys []string) ([]StoredVersion, error) {
	if len(products) == 0 || (keys != nil && len(keys) == 0) {
		return nil, nil
	}
	// A version without a state row started from none: a run that starts
	// from a state always leaves one (version_state.go).
	query := `SELECT v.product, v.partition, v.partition_start, v.partition_end, v.version, v.run_id, v.row_count, v.upstream::VARCHAR,
			coalesce(v.content_hash, ''), s.product IS NULL OR s.start_state IS NOT NULL, coalesce(s.start_state::VARCHAR, 'null')
		FROM _strata.versions v LEFT JOIN _strata.version_state s ON s.product = v.product AND s.partition = v.partition AND s.version = v.version
		WHERE v.is_current AND v.product IN (` + placeholders(len(products)) + `)`
	args := make([]any, 0, len(products)+len(keys))
	for _, p := range products {
		args = append(args, p)
	}
	if keys != nil {
		query += ` AND v.partition IN (` + placeholders(len(keys)) + `)`
		for _, k := range keys {
			args = append(args, k)
		}
	}
	query += ` ORDER BY v.partition_start, v.partition, v.product`
	var out []StoredVersion
	err := w.readTx(ctx, func(conn *sql.Conn) error {
		rows, err := conn.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s StoredVersion
			var up, start string
			if err := rows.Scan(&s.Product, &s.Partition, &s.Start, &s.End, &s.Version, &s.RunID, &s.Rows, &up, &s.Hash, &s.StartKnown, &start); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(start), &s.StartState); err != nil {
				return fmt.Errorf("%s partition %s version %d: start state %q: %w", s.Product, s.Partition, s.Version, start, err)
			}
			s.Start, s.End = s.Start.UTC(), s.End.UTC()
			if err := json.Unmarshal([]byte(up), &s.Upstream); err != nil {
				return fmt.Errorf("%s partition %s version %d: upstream %q: %w", s.Product, s.Partition, s.Version, up, err)
			}
			out = append(out, s)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("current versions of %s: %w", strings.Join(products, ", "), err)
	}
	return out, nil
}

// RunVersions lists what one run wrote: product -> partition -> version
// (the versions a lineage's 0 names).
func (w *Warehouse) RunVersions(ctx context.Context, runID string) (map[string]map[string]int, error) {
	out := map[string]map[string]int{}
	rows, err := w.db.QueryContext(ctx, `SELECT product, partition, version FROM _strata.versions WHERE run_id = ?`, runID)
	if err != nil {
		return nil, fmt.Errorf("versions of run %s: %w", runID, err)
	}
	defer rows.Close()
	for rows.Next() {
		var p, k string
		var v int
		if err := rows.Scan(&p, &k, &v); err != nil {
			return nil, err
		}
		if out[p] == nil {
			out[p] = map[string]int{}
		}
		out[p][k] = v
	}
	return out, rows.Err()
}

func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }
