package partitions

import (
	"sync"
	"time"
)

// zones holds each zone LoadZone has resolved. time.LoadLocation reads and
// parses the zone's file on every call, and a backfill builds a Spec for
// every partition run (and a few more per block): measured on the 5-year
// demo backfill, 16 reads of America/New_York a partition. A *time.Location
// never changes once loaded, so one per name serves every caller.
var zones sync.Map // name -> *time.Location

// loadLocation is time.LoadLocation, once per name. Errors are not kept:
// a zone missing now may be installed later.
func loadLocation(name string) (*time.Location, error) {
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	zones.Store(name, loc)
	return loc, nil
}
