package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Reading a running backfill's status from another process. DuckDB lets no
// other process open a warehouse file while one writes it, so `strata
// backfill status` beside a running `strata backfill` (which has no API)
// could only say "in use". The status travels the way control requests do
// (control_file.go): the asker writes a "status" request for the advertised
// run instance, which answers with its status in the acknowledgement, read
// from its own warehouse. Nothing is changed, so nothing can go stale.

// LiveStatus is a running backfill's status as the process running it
// answered.
type LiveStatus struct {
	Backfill   *BackfillStatus   `json:"backfill"`
	Partitions []PartitionStatus `json:"partitions,omitempty"`
	PID        int               `json:"pid"`
	At         time.Time         `json:"at"`
}

// RequestStatus asks the process that holds the project (holderPID) for
// the status of backfill id, which it must be running; with partitions, the
// answer lists them (only those in state, when set).
func RequestStatus(ctx context.Context, projectDir, id string, holderPID int, wait time.Duration, partitions bool, state string) (*LiveStatus, error) {
	ack, err := exchange(ctx, projectDir, controlRequest{Backfill: id, Action: "status", Partitions: partitions, State: state}, holderPID, wait)
	var nr *NotRunningError
	if errors.As(err, &nr) {
		return nil, fmt.Errorf("backfill %s is not running in pid %d, which holds the project, so its status cannot be read now: "+
			"ask that process (strata start: GET /api/v1/backfills/%s) or run this again once it stops", id, holderPID, id)
	}
	if err != nil {
		return nil, err
	}
	var st LiveStatus
	if err := json.Unmarshal(ack.Status, &st); err != nil || st.Backfill == nil {
		return nil, fmt.Errorf("pid %d answered the status of backfill %s without one (%v)", holderPID, id, err)
	}
	return &st, nil
}

// RunningBackfills lists the backfills whose run instances holderPID
// advertises (kill -9 leaves instance files of a dead process behind; those
// name another pid and are skipped).
func RunningBackfills(projectDir string, holderPID int) []string {
	files, _ := filepath.Glob(filepath.Join(projectDir, ".strata", "control", "*", "instance.json"))
	var ids []string
	for _, f := range files {
		var inst controlInstance
		if readJSON(f, &inst) == nil && inst.PID == holderPID && filepath.Base(filepath.Dir(f)) == inst.Backfill {
			ids = append(ids, inst.Backfill)
		}
	}
	sort.Strings(ids)
	return ids
}

// answerStatus acknowledges a "status" request with this run's status.
func (b *backfillRun) answerStatus(dir string, r controlRequest) {
	ctx, cancel := context.WithDeadline(context.Background(), r.Expires)
	defer cancel()
	live := LiveStatus{PID: os.Getpid(), At: time.Now().UTC()}
	st, err := b.e.Backfill(ctx, b.id)
	if err == nil && r.Partitions {
		live.Partitions, _, err = b.e.BackfillPartitions(ctx, b.id, r.State, 0, -1)
	}
	if err != nil {
		acknowledge(dir, r, err, "")
		return
	}
	live.Backfill = st
	raw, err := json.Marshal(live)
	if err != nil {
		acknowledge(dir, r, err, "")
		return
	}
	_ = writeFileAtomic(filepath.Join(controlDir(dir, r.Backfill), r.Nonce+".ack.json"),
		controlAck{Instance: r.Instance, Action: r.Action, OK: true, Status: raw})
}
