package partitions

import "testing"

// A backfill resolves its zone for every partition; the zone's file is read
// once, not each time (time.LoadLocation gives a new Location per call).
func TestLoadZoneResolvesAZoneOnce(t *testing.T) {
	a, err := LoadZone("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	b, err := LoadZone(" America/New_York ")
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("LoadZone read America/New_York twice: two Locations for one zone")
	}
	if a.String() != "America/New_York" {
		t.Errorf("zone %q", a)
	}
	for range 2 { // an unknown zone stays an error, and is not kept
		if _, err := LoadZone("Mars/Olympus_Mons"); err == nil {
			t.Error("LoadZone(Mars/Olympus_Mons) succeeded")
		}
	}
}
