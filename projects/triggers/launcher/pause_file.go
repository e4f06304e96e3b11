package launcher

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Pause state lives in a file of the project's .strata folder rather than in
// the warehouse: `strata triggers pause` must work while `strata start`
// holds the warehouse, and the loop reads the file at every step, so a pause
// takes effect at once in whichever process runs the triggers.
//
// A resume keeps the trigger's entry with its resume time: the pause covers
// the ticks recorded before it was taken whose work had not launched, and a
// tick still queued behind a running one when the trigger is resumed must
// find out, when its turn comes, that a pause was taken after it was recorded.

// PauseFile is where pause state is kept, relative to the project folder.
const PauseFile = ".strata/triggers/paused.json"

// PauseState is one trigger's last pause.
type PauseState struct {
	Since     time.Time `json:"since"`
	ResumedAt time.Time `json:"resumed_at,omitzero"` // zero while paused
}

// Active reports whether the trigger is paused now.
func (p PauseState) Active() bool { return p.ResumedAt.IsZero() }

// Covers reports whether the pause covers a tick recorded at recorded: the
// trigger is paused now, or was paused after the tick was recorded.
func (p PauseState) Covers(recorded time.Time) bool {
	return p.Active() || !p.Since.Before(recorded)
}

// Paused reads the paused triggers of a project, keyed "pipeline/trigger".
func Paused(dir string) (map[string]PauseState, error) {
	all, err := pauses(dir)
	if err != nil {
		return nil, err
	}
	for k, p := range all {
		if !p.Active() {
			delete(all, k)
		}
	}
	return all, nil
}

// pauses reads the last pause of every trigger ever paused, resumed or not.
func pauses(dir string) (map[string]PauseState, error) {
	raw, err := os.ReadFile(filepath.Join(dir, PauseFile))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]PauseState{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]PauseState{}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// SetPaused pauses or resumes a trigger; it reports whether anything changed.
func SetPaused(dir, pipeline, trigger string, paused bool, now time.Time) (bool, error) {
	m, err := pauses(dir)
	if err != nil {
		return false, err
	}
	key := pauseKey(pipeline, trigger)
	p, seen := m[key]
	if was := seen && p.Active(); was == paused {
		return false, nil
	}
	if paused {
		m[key] = PauseState{Since: now.UTC()}
	} else {
		p.ResumedAt = now.UTC()
		m[key] = p
	}
	raw, _ := json.MarshalIndent(m, "", "  ")
	path := filepath.Join(dir, PauseFile)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, raw, 0o644); err != nil {
		return false, err
	}
	return true, os.Rename(tmp, path)
}

func pauseKey(pipeline, trigger string) string { return pipeline + "/" + trigger }
