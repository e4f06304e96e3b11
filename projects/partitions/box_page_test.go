package partitions

import (
	"fmt"
	"slices"
	"testing"
)

// TestIterBoxFromAndBoxIndex: a page of a box from any offset is the same
// cells IterBox yields there, and BoxIndex gives each key its place (and
// refuses a key outside the box), with and without a filter.
func TestIterBoxFromAndBoxIndex(t *testing.T) {
	t.Parallel()
	s := withDims(t, spec(t, "day", "UTC", "", "2024-01-01"), "region=us,eu,apac", "tier=gold,free")
	for _, b := range []Box{
		{From: "2024-01-01", To: "2024-01-05"},
		{From: "2024-01-02", To: "2024-01-04", Where: map[string][]string{"region": {"apac", "us"}}},
	} {
		it, err := s.IterBox(b)
		if err != nil {
			t.Fatal(err)
		}
		var all []string
		for p := range it {
			all = append(all, p.Key)
		}
		index, err := s.BoxIndex(b)
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range all {
			if j, ok := index(k); !ok || j != i {
				t.Errorf("box %v: index of %s = %d, %v; want %d", b, k, j, ok, i)
			}
		}
		for off := 0; off <= len(all)+1; off++ {
			from, err := s.IterBoxFrom(b, off)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for p := range from {
				got = append(got, p.Key)
			}
			if want := all[min(off, len(all)):]; !slices.Equal(got, want) {
				t.Fatalf("box %v from %d: %v; want %v", b, off, got, want)
			}
		}
		for _, k := range []string{"2023-12-31|us|gold", "2024-01-06|us|gold", "2024-01-03|mars|gold", "2024-01-03|us", "nope", fmt.Sprintf("%s|x", all[0])} {
			if j, ok := index(k); ok {
				t.Errorf("box %v: %s is at %d; want outside", b, k, j)
			}
		}
	}
}
