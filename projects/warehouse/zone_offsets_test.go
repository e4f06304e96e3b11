package warehouse

import (
	"testing"
	"time"
)

func TestOffsetSpans(t *testing.T) {
	t.Parallel()
	ny, _ := time.LoadLocation("America/New_York")
	lo := time.Date(2024, 1, 1, 0, 0, 0, 0, ny)
	spans := offsetSpans(lo, lo.AddDate(1, 0, 0), ny)
	// EST, then EDT from 2024-03-10 07:00 UTC, then EST from 2024-11-03 06:00 UTC.
	if len(spans) != 3 || spans[0].offset != -5*3600 || spans[1].offset != -4*3600 || spans[2].offset != -5*3600 {
		t.Fatalf("%+v", spans)
	}
	if want := time.Date(2024, 3, 10, 7, 0, 0, 0, time.UTC); !spans[1].from.Equal(want) {
		t.Fatalf("summer time from %s, want %s", spans[1].from.UTC(), want)
	}
	if want := time.Date(2024, 11, 3, 6, 0, 0, 0, time.UTC); !spans[2].from.Equal(want) {
		t.Fatalf("winter time from %s, want %s", spans[2].from.UTC(), want)
	}
	if s := offsetSpans(lo, lo.AddDate(5, 0, 0), time.UTC); len(s) != 1 || s[0].offset != 0 {
		t.Fatalf("UTC: %+v", s)
	}
}
