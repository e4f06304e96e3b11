package partitions

import (
	"sync"
	"testing"
	"time"
)

// Property tests: for any instant, in any zone and interval, the partition
// containing it round-trips through its key, contains it, and tiles time
// with its neighbours. The zones are chosen for their oddities: DST on both
// hemispheres, offsets of 30 and 45 minutes, a 30-minute DST shift, DST at
// midnight, whole days skipped at the date line, and a long history of
// changes (Casablanca, Moscow).
var propertyZones = []string{
	"UTC", "America/New_York", "Europe/Berlin", "Australia/Adelaide", "Asia/Kolkata",
	"Australia/Lord_Howe", "America/Sao_Paulo", "Pacific/Apia", "Pacific/Kiritimati",
	"Asia/Kathmandu", "America/St_Johns", "Pacific/Chatham", "Africa/Casablanca", "Europe/Moscow",
}

var loadPropertyZones = sync.OnceValues(func() ([]*time.Location, error) {
	locs := make([]*time.Location, len(propertyZones))
	for i, name := range propertyZones {
		loc, err := LoadZone(name)
		if err != nil {
			return nil, err
		}
		locs[i] = loc
	}
	return locs, nil
})

func propertySpec(t testing.TB, interval, zone, weekStart uint8) Spec {
	locs, err := loadPropertyZones()
	if err != nil {
		t.Fatal(err)
	}
	return Spec{
		Interval:  intervals[int(interval)%len(intervals)],
		Zone:      locs[int(zone)%len(locs)],
		WeekStart: time.Weekday(weekStart % 7),
	}
}

// Keys have four-digit years, so instants are kept inside 0001-01-08..9999-12-20.
var (
	minFuzzSec = time.Date(1, 1, 8, 0, 0, 0, 0, time.UTC).Unix()
	maxFuzzSec = time.Date(9999, 12, 20, 0, 0, 0, 0, time.UTC).Unix()
)

func FuzzParseRoundTrip(f *testing.F) {
	seeds := []string{
		"2024-11-03T05:30:00Z", "2024-11-03T06:30:00Z", "2024-03-10T07:00:00Z", // New York DST
		"2024-10-27T00:59:59Z", "2024-04-06T16:15:00Z", "2024-04-06T15:45:00Z", // Berlin, Adelaide, Lord Howe
		"2011-12-30T10:00:00Z", "1995-01-01T00:00:00Z", "2019-02-17T02:30:00Z", // Apia, Kiritimati, Sao Paulo
		"1883-11-18T17:00:00Z", "0001-01-08T00:00:00Z", "9999-12-19T23:59:59Z", // LMT, edges of the key range
	}
	for i, s := range seeds {
		at, err := time.Parse(time.RFC3339, s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(at.Unix(), uint32(i*7919), uint8(i), uint8(i*3), uint8(i))
	}
	f.Fuzz(func(t *testing.T, sec int64, nsec uint32, interval, zone, weekStart uint8) {
		sec = minFuzzSec + floorMod(sec, maxFuzzSec-minFuzzSec)
		at := time.Unix(sec, int64(nsec%1_000_000_000))
		checkRoundTrip(t, propertySpec(t, interval, zone, weekStart), at)
	})
}

// TestAroundEveryTransition checks the round-trip invariants at and around
// every clock change from 1850 to 2040 in every property zone, for every
// interval, and that counting agrees with iterating over those years.
func TestAroundEveryTransition(t *testing.T) {
	t.Parallel()
	locs, err := loadPropertyZones()
	if err != nil {
		t.Fatal(err)
	}
	from := time.Date(1850, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	to := time.Date(2040, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	for _, loc := range locs {
		var transitions []int64
		walkOffsets(loc, from, to, func(p piece) bool {
			if p.start != from {
				transitions = append(transitions, p.start)
			}
			return true
		})
		for _, iv := range []Interval{Hour, Day, Week, Month} {
			s := Spec{Interval: iv, Zone: loc, WeekStart: time.Monday}
			for _, x := range transitions {
				for _, d := range []int64{-7200, -3601, -1800, -1, 0, 1, 1799, 3600, 5400} {
					checkRoundTrip(t, s, time.Unix(x+d, 0))
				}
			}
		}
		// Count is arithmetic; iterating is the definition. They must agree.
		for _, w := range []struct {
			interval Interval
			from, to int // years
		}{
			{Hour, 1850, 1870}, {Hour, 2005, 2025}, {Day, 1850, 2040}, {Week, 1850, 2040},
		} {
			s := Spec{Interval: w.interval, Zone: loc, WeekStart: time.Sunday}
			a := s.At(time.Date(w.from, 1, 1, 0, 0, 0, 0, time.UTC))
			b := s.At(time.Date(w.to, 1, 1, 0, 0, 0, 0, time.UTC))
			n, err := s.Count(a.Key, b.Key)
			if err != nil {
				t.Fatalf("%s: Count(%s, %s): %v", s, a.Key, b.Key, err)
			}
			seq, _ := s.Iter(a.Key, b.Key)
			walked := 0
			for range seq {
				walked++
			}
			if n != walked {
				t.Errorf("%s: Count(%s, %s) = %d, but Iter yields %d", s, a.Key, b.Key, n, walked)
			}
		}
	}
}
