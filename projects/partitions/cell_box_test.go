package partitions

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// dims adds value dimensions to s: "region=us,eu,apac" is static,
// "customer@" a dynamic one whose key set is not loaded.
func withDims(t testing.TB, s Spec, defs ...string) Spec {
	t.Helper()
	for _, def := range defs {
		name, vals, static := strings.Cut(def, "=")
		var d Dim
		var err error
		if static {
			d, err = NewStaticDim(name, strings.Split(vals, ","))
		} else {
			d, err = NewDynamicDim(strings.TrimSuffix(name, "@"), "dim_"+name, "id")
		}
		if err != nil {
			t.Fatalf("dimension %q: %v", def, err)
		}
		s.Dims = append(s.Dims, d)
	}
	return s
}

func TestCellParse(t *testing.T) {
	t.Parallel()
	s := withDims(t, spec(t, "day", "America/New_York", "", "2024-01-01"), "region=us,eu,apac", "tier=gold,free")
	p, err := s.Parse("2024-03-10|eu|gold")
	if err != nil {
		t.Fatal(err)
	}
	if p.Key != "2024-03-10|eu|gold" || !slices.Equal(p.Values, []string{"eu", "gold"}) || p.Duration().Hours() != 23 {
		t.Fatalf("parsed %+v (duration %v)", p, p.Duration())
	}
	if v, _ := s.Value(p, "tier"); v != "gold" || s.TimeKey(p) != "2024-03-10" {
		t.Fatalf("tier %q, time %q", v, s.TimeKey(p))
	}
	for _, c := range []struct {
		key  string
		kind error
		want string
	}{
		{"2024-03-10", ErrInvalidKey, `has 1 part(s): want 3, DAY|region|tier (e.g. 2024-03-10|us|gold)`},
		{"2024-03-10|eu", ErrInvalidKey, "want 3"},
		{"2024-03-10|mars|gold", ErrUnknownValue, `"mars" is not a value of dimension region: its values: us, eu, apac`},
		{"2024-03-10||gold", ErrInvalidKey, "dimension region: empty value"},
		{"2024-02-30|eu|gold", ErrInvalidKey, `partition "2024-02-30|eu|gold": time part: partition "2024-02-30" is not a valid day`},
		{"2023-12-31|eu|gold", ErrBeforeStart, "before the first partition"},
		{"2024-W10|eu|gold", ErrInvalidKey, "it looks like a week key"},
	} {
		_, err := s.Parse(c.key)
		if !errors.Is(err, c.kind) || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v; want %v containing %q", c.key, err, c.kind, c.want)
		}
	}
}

// TestOneDimensionalKeysUnchanged: a spec without value dimensions keeps
// its keys byte for byte through Parse, Iter and Covering.
func TestOneDimensionalKeysUnchanged(t *testing.T) {
	t.Parallel()
	s := spec(t, "hour", "America/New_York")
	got, err := s.Range("2024-11-03T00", "2024-11-03T02")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"2024-11-03T00", "2024-11-03T01-04:00", "2024-11-03T01-05:00", "2024-11-03T02"}
	if !slices.Equal(keysOf(got), want) {
		t.Fatalf("keys %q, want %q", keysOf(got), want)
	}
	for _, p := range got {
		if p.Values != nil {
			t.Fatalf("%s has values %q", p.Key, p.Values)
		}
	}
	if !s.Partitioned() || s.Dimensional() {
		t.Fatal("a calendar spec is partitioned and not dimensional")
	}
}

func TestBoxIterAndCount(t *testing.T) {
	t.Parallel()
	s := withDims(t, spec(t, "day", "UTC"), "region=us,eu,apac", "tier=gold,free")
	b := Box{From: "2024-03-09", To: "2024-03-10", Where: map[string][]string{"region": {"apac", "us", "apac"}}}
	n, err := s.CountBox(b)
	if err != nil || n != 8 {
		t.Fatalf("CountBox = %d, %v; want 8", n, err)
	}
	it, err := s.IterBox(b)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for p := range it {
		got = append(got, p.Key)
		if q, err := s.Parse(p.Key); err != nil || !q.Start.Equal(p.Start) || !slices.Equal(q.Values, p.Values) {
			t.Fatalf("cell %+v does not parse back: %+v, %v", p, q, err)
		}
	}
	want := []string{
		"2024-03-09|us|gold", "2024-03-09|us|free", "2024-03-09|apac|gold", "2024-03-09|apac|free",
		"2024-03-10|us|gold", "2024-03-10|us|free", "2024-03-10|apac|gold", "2024-03-10|apac|free",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("cells %q\nwant %q", got, want)
	}
	if all, _ := s.Count("2024-03-09", "2024-03-10"); all != 12 {
		t.Fatalf("Count = %d, want 12", all)
	}
	for _, c := range []struct {
		where map[string][]string
		kind  error
		want  string
	}{
		{map[string][]string{"country": {"fr"}}, ErrInvalidKey, `no dimension "country": want one of region, tier`},
		{map[string][]string{"region": {"eu", "mars"}}, ErrUnknownValue, `where region=eu,mars: "mars" is not a value of dimension region: want us, eu, apac`},
		{map[string][]string{"region": {}}, ErrInvalidKey, "want at least one value"},
	} {
		_, err := s.CountBox(Box{From: "2024-03-09", To: "2024-03-10", Where: c.where})
		if !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("where %v: %v; want %q", c.where, err, c.want)
		}
	}
}

func TestTimeNotFirstAndNoTime(t *testing.T) {
	t.Parallel()
	s := withDims(t, spec(t, "month", "UTC"), "region=us,eu")
	s.TimePos = 1
	p, err := s.Parse("eu|2024-03")
	if err != nil || s.TimeKey(p) != "2024-03" {
		t.Fatalf("Parse = %+v, %v", p, err)
	}
	if n := s.Next(p); n.Key != "eu|2024-04" {
		t.Fatalf("Next = %q", n.Key)
	}
	if _, err := s.Parse("2024-03|eu"); !errors.Is(err, ErrUnknownValue) {
		t.Fatalf("time first in a region-first spec: %v", err)
	}
	r := withDims(t, spec(t, "none", "UTC"), "region=us,eu")
	cells, err := r.Range("", "")
	if err != nil || !slices.Equal(keysOf(cells), []string{"us", "eu"}) {
		t.Fatalf("time-less cells %q, %v", keysOf(cells), err)
	}
}

// TestCellMapping: the mappings between pipelines of different dimensions.
func TestCellMapping(t *testing.T) {
	t.Parallel()
	day := spec(t, "day", "UTC")
	dayRegion := withDims(t, day, "region=us,eu,apac")
	weekRegion := withDims(t, spec(t, "week", "UTC"), "region=us,eu,apac")
	// A day reader of a day × region product reads every region of its day.
	p, _ := day.Parse("2024-03-10")
	if got := keysOf(day.Covering(p, dayRegion)); !slices.Equal(got, []string{"2024-03-10|us", "2024-03-10|eu", "2024-03-10|apac"}) {
		t.Fatalf("day covering day×region: %q", got)
	}
	// A week × region rollup reads its days of that region.
	w, err := weekRegion.Parse("2024-W10|eu")
	if err != nil {
		t.Fatal(err)
	}
	got := keysOf(weekRegion.Covering(w, dayRegion))
	if len(got) != 7 || got[0] != "2024-03-04|eu" || got[6] != "2024-03-10|eu" {
		t.Fatalf("week×region covering day×region: %q", got)
	}
	// Rewriting a day of one region makes that region's week stale, and
	// the plain day product of that day.
	c, _ := dayRegion.Parse("2024-03-10|eu")
	if got := keysOf(dayRegion.Containing(c, weekRegion)); !slices.Equal(got, []string{"2024-W10|eu"}) {
		t.Fatalf("containing week×region: %q", got)
	}
	if got := keysOf(dayRegion.Containing(c, day)); !slices.Equal(got, []string{"2024-03-10"}) {
		t.Fatalf("containing day: %q", got)
	}
	// A dynamic dimension not loaded cannot be expanded.
	dyn := withDims(t, day, "customer@")
	if got := day.Covering(p, dyn); got != nil {
		t.Fatalf("covering an unloaded key set: %q", keysOf(got))
	}
	d, _ := dyn.Dims[0].WithValues([]string{"c2", "c1", "c2"})
	dyn.Dims = []Dim{d}
	if got := keysOf(day.Covering(p, dyn)); !slices.Equal(got, []string{"2024-03-10|c2", "2024-03-10|c1"}) {
		t.Fatalf("covering a loaded key set: %q", got)
	}
}

func TestDimensionErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		values []string
		want   string
	}{
		{"", []string{"a"}, "a dimension needs a name"},
		{"2region", []string{"a"}, "not an identifier"},
		{"region", nil, "has no values"},
		{"region", []string{"us", "us"}, `lists "us" twice`},
		{"region", []string{"u|s"}, `contains "|"`},
		{"region", []string{"a,b"}, "comma"},
		{"region", []string{"@new"}, "starts with @"},
		{"region", []string{" eu"}, "spaces"},
	} {
		if _, err := NewStaticDim(c.name, c.values); !errors.Is(err, ErrInvalidSpec) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewStaticDim(%q, %q) = %v; want %q", c.name, c.values, err, c.want)
		}
	}
	s := withDims(t, spec(t, "day", "UTC"), "region=us", "region=eu")
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), `"region" is declared twice`) {
		t.Fatalf("Validate = %v", err)
	}
}
