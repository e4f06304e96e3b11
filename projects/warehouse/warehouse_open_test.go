package warehouse

import (
	"context"
	"testing"
)

// The warehouse checkpoints at CheckpointThreshold, not DuckDB's 16 MiB
// (dsnOptions says why).
func TestOpenSetsTheCheckpointThreshold(t *testing.T) {
	wh := openTemp(t)
	var got string
	if err := wh.db.QueryRowContext(context.Background(), `SELECT current_setting('checkpoint_threshold')`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != "256.0 MiB" {
		t.Fatalf("checkpoint_threshold = %q, want 256.0 MiB (CheckpointThreshold %s)", got, CheckpointThreshold)
	}
	if err := wh.Checkpoint(context.Background()); err != nil {
		t.Fatal(err)
	}
}
