package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Control between processes. Only one strata process holds a project's
// warehouse; a second one (`strata backfill cancel DIR ID` while `strata
// start` runs) cannot open it, so it hands the request over in files under
// .strata/control/<backfill>/:
//
//	instance.json        the run instance executing the backfill now (pid, nonce)
//	<nonce>.request.json a cancel, pause or resume for one named instance, with an expiry
//	<nonce>.ack.json     that instance's answer
//
// A request names the instance it is for, so a request left behind (the
// instance ended, crashed or never existed) is never applied to a later run
// of the same backfill: a retry after a stale "pause" would otherwise hang
// at once, and a stale "cancel" would cancel it (and, in atomic mode, discard
// all of its staged work). The asker writes a request only when a live
// instance is advertised by the pid that holds the lock, and waits for the
// acknowledgement until the request expires; an instance drops requests
// that are not its own or have expired.

// ControlActions are the requests another process can hand over.
var ControlActions = []string{"cancel", "pause", "resume"}

// controlInstance is what a running backfill advertises in instance.json.
type controlInstance struct {
	Backfill string    `json:"backfill"`
	Instance string    `json:"instance"`
	PID      int       `json:"pid"`
	Started  time.Time `json:"started_at"`
}

type controlRequest struct {
	Backfill string    `json:"backfill"`
	Instance string    `json:"instance"`
	Action   string    `json:"action"`
	Nonce    string    `json:"nonce"`
	Expires  time.Time `json:"expires_at"`
	// For a "status" request: also list the partitions (in State only,
	// when set). See control_status.go.
	Partitions bool   `json:"partitions,omitempty"`
	State      string `json:"state,omitempty"`
}

type controlAck struct {
	Instance string          `json:"instance"`
	Action   string          `json:"action"`
	OK       bool            `json:"ok"`
	Message  string          `json:"message"`
	Status   json.RawMessage `json:"status,omitempty"` // a "status" request's LiveStatus
}

// NotRunningError says that the process holding the project is not running
// the backfill, so a request for it would do nothing.
type NotRunningError struct {
	Backfill, Action string
	PID              int
}

func (e *NotRunningError) Error() string {
	holder := "any process (none holds the project)"
	if e.PID > 0 {
		holder = fmt.Sprintf("pid %d, which holds the project,", e.PID)
	}
	msg := fmt.Sprintf("backfill %s is not running in %s; nothing to %s", e.Backfill, holder, e.Action)
	if e.Action == "resume" {
		msg += " there (retry or resume it through that process's API: POST /api/v1/backfills/" + e.Backfill + "/resume, or stop it and run this again)"
	}
	return msg
}

func controlDir(projectDir, id string) string {
	return filepath.Join(projectDir, ".strata", "control", id)
}

func newNonce() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// writeFileAtomic writes through a temporary file and a rename, so a reader
// never sees half a file.
func writeFileAtomic(path string, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	tmp := path + ".tmp-" + newNonce()
	if err := os.WriteFile(tmp, raw, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

func readJSON(path string, v any) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, v)
}

// advertise records inst as the instance running its backfill. A plain
// file where the folder belongs is a request in the layout before
// instances existed: it was for no instance, so it is dropped.
func advertise(projectDir string, inst controlInstance) error {
	dir := controlDir(projectDir, inst.Backfill)
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		if err := os.Remove(dir); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, "instance.json"), inst)
}

// unadvertise removes instance.json if it still names inst, and with it any
// request nobody will answer now.
func unadvertise(projectDir string, inst controlInstance) {
	dir := controlDir(projectDir, inst.Backfill)
	var cur controlInstance
	if readJSON(filepath.Join(dir, "instance.json"), &cur) == nil && cur.Instance == inst.Instance {
		_ = os.Remove(filepath.Join(dir, "instance.json"))
	}
}

// takeRequests removes every request file of a backfill and returns those
// for instance that have not expired at now. The others are stale: for an
// instance that ended, or given up by their asker.
func takeRequests(projectDir, id, instance string, now time.Time) []controlRequest {
	dir := controlDir(projectDir, id)
	names, _ := filepath.Glob(filepath.Join(dir, "*.request.json"))
	var out []controlRequest
	for _, name := range names {
		var r controlRequest
		err := readJSON(name, &r)
		_ = os.Remove(name)
		if err != nil || r.Instance != instance || r.Backfill != id || !now.Before(r.Expires) {
			continue
		}
		out = append(out, r)
	}
	return out
}

func acknowledge(projectDir string, r controlRequest, err error, msg string) {
	ack := controlAck{Instance: r.Instance, Action: r.Action, OK: err == nil, Message: msg}
	if err != nil {
		ack.Message = err.Error()
	}
	_ = writeFileAtomic(filepath.Join(controlDir(projectDir, r.Backfill), r.Nonce+".ack.json"), ack)
}

// RequestControl asks the process that holds the project (holderPID, from
// the warehouse lock) to cancel, pause or resume backfill id, and waits up
// to wait for its acknowledgement, whose message it returns. When that
// process is not running the backfill it returns a *NotRunningError at once
// and leaves nothing behind.
func RequestControl(ctx context.Context, projectDir, id, action string, holderPID int, wait time.Duration) (string, error) {
	switch action {
	case "cancel", "pause", "resume":
	default:
		return "", fmt.Errorf("control %q: want one of %s", action, strings.Join(ControlActions, ", "))
	}
	ack, err := exchange(ctx, projectDir, controlRequest{Backfill: id, Action: action}, holderPID, wait)
	if err != nil {
		return "", err
	}
	return ack.Message, nil
}

// exchange hands req (Backfill and Action set) to the instance advertised
// for its backfill by holderPID and waits for the acknowledgement.
func exchange(ctx context.Context, projectDir string, req controlRequest, holderPID int, wait time.Duration) (controlAck, error) {
	id, action := req.Backfill, req.Action
	dir := controlDir(projectDir, id)
	var inst controlInstance
	if err := readJSON(filepath.Join(dir, "instance.json"), &inst); err != nil || inst.Backfill != id || (holderPID > 0 && inst.PID != holderPID) {
		// Missing, or left by a process that died without removing it
		// (kill -9): the holder is another process.
		return controlAck{}, &NotRunningError{Backfill: id, Action: action, PID: holderPID}
	}
	req.Instance, req.Nonce, req.Expires = inst.Instance, newNonce(), time.Now().Add(wait)
	reqPath := filepath.Join(dir, req.Nonce+".request.json")
	ackPath := filepath.Join(dir, req.Nonce+".ack.json")
	if err := writeFileAtomic(reqPath, req); err != nil {
		return controlAck{}, fmt.Errorf("hand %s of backfill %s to pid %d: %w", action, id, inst.PID, err)
	}
	answer := func() (controlAck, bool, error) {
		var ack controlAck
		if readJSON(ackPath, &ack) != nil {
			return ack, false, nil
		}
		_ = os.Remove(ackPath)
		if !ack.OK {
			return ack, true, fmt.Errorf("pid %d could not %s backfill %s: %s", inst.PID, action, id, ack.Message)
		}
		return ack, true, nil
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		if ack, ok, err := answer(); ok {
			return ack, err
		}
		if time.Now().After(req.Expires) {
			break
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			_ = os.Remove(reqPath)
			return controlAck{}, ctx.Err()
		}
	}
	// Not taken in time: withdrawn, so it can never apply later. If the
	// instance ended meanwhile it was not running after all.
	if os.Remove(reqPath) == nil {
		if readJSON(filepath.Join(dir, "instance.json"), &inst) != nil || inst.Instance != req.Instance {
			return controlAck{}, &NotRunningError{Backfill: id, Action: action, PID: holderPID}
		}
		return controlAck{}, fmt.Errorf("pid %d did not answer the %s of backfill %s within %s; nothing was done", inst.PID, action, id, wait)
	}
	// Taken but not yet answered (a cancel is answered once its kernels
	// have stopped): give the answer a little longer.
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if ack, ok, err := answer(); ok {
			return ack, err
		}
	}
	return controlAck{}, errors.New("pid " + fmt.Sprint(inst.PID) + " took the " + action + " of backfill " + id + " but did not say it was done within " + (2 * wait).String())
}
