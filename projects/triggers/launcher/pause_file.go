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

// PauseFile is where pause state is kept, relative to the project folder.
const PauseFile = ".strata/triggers/paused.json"

// PauseState is one paused trigger.
type PauseState struct {
	Since time.Time `json:"since"`
}

// Paused reads the paused triggers of a project, keyed "pipeline/trigger".
func Paused(dir string) (map[string]PauseState, error) {
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
	m, err := Paused(dir)
	if err != nil {
		return false, err
	}
	key := pauseKey(pipeline, trigger)
	if _, was := m[key]; was == paused {
		return false, nil
	}
	if paused {
		m[key] = PauseState{Since: now.UTC()}
	} else {
		delete(m, key)
	}
	raw, _ := json.MarshalIndent(m, "", "  ")
	p := filepath.Join(dir, PauseFile)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return false, err
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, raw, 0o644); err != nil {
		return false, err
	}
	return true, os.Rename(tmp, p)
}

func pauseKey(pipeline, trigger string) string { return pipeline + "/" + trigger }
