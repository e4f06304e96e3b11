package protocol

import (
	"sync"
	"time"
)

// zones holds each zone BlockPartition has resolved. time.LoadLocation
// reads and parses the zone's file on every call, and a worker resolves
// the zone for every block of every partition it runs. A *time.Location
// never changes once loaded, so one per name serves every block.
var zones sync.Map // name -> *time.Location

// loadLocation is time.LoadLocation, once per name. Errors are not kept.
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
