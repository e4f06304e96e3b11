package engine

import "time"

// Progress is a backfill's counts, rate and ETA, as the CLI's progress bar
// and the websocket show them.
type Progress struct {
	BackfillID string        `json:"backfill_id"`
	State      State         `json:"state"`
	Total      int           `json:"total"`
	Done       int           `json:"done"` // succeeded + skipped-as-current
	Succeeded  int           `json:"succeeded"`
	Failed     int           `json:"failed"`
	Running    int           `json:"running"`
	Skipped    int           `json:"skipped"`
	Cancelled  int           `json:"cancelled"`
	Rate       float64       `json:"rate_per_min"` // partitions finished per minute, recent
	ETA        time.Duration `json:"eta"`
	Elapsed    time.Duration `json:"elapsed"`
}
