package alerts

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Delivery states in the journal.
const (
	StateQueued    = "queued"    // written before the first try
	StateFailed    = "failed"    // one attempt failed; more follow
	StateDelivered = "delivered" // the receiver answered 2xx
	StateDead      = "dead"      // the last attempt failed: the dead letter
)

// record is one journal line.
type record struct {
	Delivery string    `json:"delivery"` // event id + ">" + webhook name
	Webhook  string    `json:"webhook"`
	State    string    `json:"state"`
	Attempt  int       `json:"attempt,omitempty"`
	Status   int       `json:"status,omitempty"` // the receiver's HTTP status
	Error    string    `json:"error,omitempty"`
	Alert    *Alert    `json:"alert,omitempty"` // on every line, so compaction can keep any one
	At       time.Time `json:"at"`
}

// JournalFile is where a project's deliveries are recorded.
func JournalFile(projectDir string) string {
	return filepath.Join(projectDir, ".strata", "alerts.jsonl")
}

// keepTerminal is how long delivered and dead deliveries stay in the
// journal after a restart compacts it (pending ones always stay).
const keepTerminal = 30 * 24 * time.Hour

type journal struct {
	path string
	mu   sync.Mutex
}

// load reads the journal and returns the last record of each delivery, in
// the order deliveries first appeared; then it rewrites the file with only
// those (dropping terminal ones older than keepTerminal), so the journal
// does not grow without bound.
func (j *journal) load(now time.Time) ([]record, error) {
	f, err := os.Open(j.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("alerts journal: %w", err)
	}
	last := map[string]int{}
	var out []record
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			var rec record
			// A torn last line (a crash mid-write) is skipped: its delivery
			// stays in the state of its previous line.
			if json.Unmarshal(line, &rec) == nil && rec.Delivery != "" && rec.Alert != nil {
				if i, ok := last[rec.Delivery]; ok {
					out[i] = rec
				} else {
					last[rec.Delivery] = len(out)
					out = append(out, rec)
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("alerts journal: %w", err)
		}
	}
	f.Close()
	kept := out[:0]
	for _, rec := range out {
		terminal := rec.State == StateDelivered || rec.State == StateDead
		if terminal && now.Sub(rec.At) > keepTerminal {
			continue
		}
		kept = append(kept, rec)
	}
	return kept, j.rewrite(kept)
}

func (j *journal) rewrite(recs []record) error {
	tmp, err := os.CreateTemp(filepath.Dir(j.path), ".alerts-*.jsonl")
	if err != nil {
		return fmt.Errorf("alerts journal: %w", err)
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriter(tmp)
	for _, rec := range recs {
		b, err := json.Marshal(rec)
		if err != nil {
			tmp.Close()
			return err
		}
		w.Write(append(b, '\n'))
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return fmt.Errorf("alerts journal: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("alerts journal: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("alerts journal: %w", err)
	}
	return os.Rename(tmp.Name(), j.path)
}

// append writes one record and syncs it before returning: a delivery is
// tried only once its "queued" line is on disk.
func (j *journal) append(rec record) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(j.path), 0o755); err != nil {
		return fmt.Errorf("alerts journal: %w", err)
	}
	f, err := os.OpenFile(j.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("alerts journal: %w", err)
	}
	defer f.Close()
	if _, err := f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("alerts journal: %w", err)
	}
	return f.Sync()
}
