package protocol

import (
	"testing"
	"time"
)

// Every block of every partition gets its partition in the pipeline's zone;
// the zone's file is read once per worker, not once per block.
func TestBlockPartitionResolvesAZoneOnce(t *testing.T) {
	pw := PartitionWire{Key: "2024-03-10", Start: time.Date(2024, 3, 10, 5, 0, 0, 0, time.UTC), End: time.Date(2024, 3, 11, 4, 0, 0, 0, time.UTC), Interval: "day", Zone: "America/New_York"}
	a, err := BlockPartition(pw)
	if err != nil {
		t.Fatal(err)
	}
	b, err := BlockPartition(pw)
	if err != nil {
		t.Fatal(err)
	}
	if a.Zone != b.Zone {
		t.Error("BlockPartition loaded America/New_York twice")
	}
	if got := a.Start.Format("2006-01-02 15:04 MST"); got != "2024-03-10 00:00 EST" {
		t.Errorf("start %s", got)
	}
	pw.Zone = "Mars/Olympus_Mons"
	if _, err := BlockPartition(pw); err == nil {
		t.Error("an unknown zone was accepted")
	}
}
